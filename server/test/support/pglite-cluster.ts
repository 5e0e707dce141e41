import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_CACHE_MIN_MB, EMBEDDED_INITDB_SETTINGS, openDatabase } from '../../src/platform/db/database.js';
import { EMBEDDED_INITDB_ARGS } from '../../src/platform/db/embedded-settings.js';
import { initialisePgliteDir } from '../../src/platform/db/pglite-initdb.js';
import { embeddedTemplateFile, embeddedTemplateKey, migrationsFingerprint } from '../../src/platform/db/pglite-template.js';

export { migrationsFingerprint };

/**
 * Gives a test's data folder the embedded cluster a first start would make, already migrated,
 * copied from one made once for all tests. PGlite's initdb takes about ten seconds and the
 * migrations two or three more of what a test app needs to start; the cluster holds the
 * schema and no rows but the migrations' own (the app's start finds every migration applied),
 * so a copy is the same as a new one migrated. Tests of the first start itself
 * (pglite-initdb.test.ts) and of the migrations (migration-steps.ts) make their own.
 */
export async function seedPgliteCluster(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'db');
  if (existsSync(target)) return;
  await cp(await sharedCluster(), target, { recursive: true });
}

let shared: Promise<string> | undefined;

function sharedCluster(): Promise<string> {
  shared ??= makeSharedCluster().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** One cluster per PGlite version and settings, made by whichever test process needs it first. */
async function makeSharedCluster(): Promise<string> {
  const key = await embeddedTemplateKey();
  const cluster = path.join(tmpdir(), `encore-test-cluster-${key}`);
  if (existsSync(path.join(cluster, 'PG_VERSION'))) return cluster;
  const staging = path.join(tmpdir(), `.encore-test-cluster-${key}-${randomBytes(4).toString('hex')}`);
  try {
    // As a first start makes it: from the build's template when there is one, else by initdb.
    await initialisePgliteDir(staging, EMBEDDED_INITDB_SETTINGS, { initdbArgs: EMBEDDED_INITDB_ARGS, template: await embeddedTemplateFile() });
    if (!existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('PGlite made no cluster for the tests');
    // Migrated as the app does it, then closed (its lock file lies beside the folder).
    const database = await openDatabase({ url: undefined, pgliteDir: staging, pgliteCacheMb: EMBEDDED_CACHE_MIN_MB });
    await database.close();
    await rm(`${staging}.lock`, { force: true });
    await rename(staging, cluster).catch((error: NodeJS.ErrnoException) => {
      // Another test process made it meanwhile: theirs is as good.
      if ((error.code === 'ENOTEMPTY' || error.code === 'EEXIST') && existsSync(path.join(cluster, 'PG_VERSION'))) return;
      throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return cluster;
}
