import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDED_INITDB_SETTINGS } from '../../src/platform/db/database.js';
import { initialisePgliteDir } from '../../src/platform/db/pglite-initdb.js';

/**
 * Gives a test's data folder the embedded cluster a first start would make, copied from one
 * made once for all tests. PGlite's initdb takes about ten seconds of the fifteen a test app
 * needs to start; the cluster it makes holds no schema and no data (the app migrates it), so
 * a copy is the same as a new one. Tests of the first start itself (pglite-initdb.test.ts)
 * make their own.
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
  const require = createRequire(import.meta.url);
  const pglitePackage = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const version = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify([version, EMBEDDED_INITDB_SETTINGS]))
    .digest('hex')
    .slice(0, 16);
  const cluster = path.join(tmpdir(), `encore-test-cluster-${key}`);
  if (existsSync(path.join(cluster, 'PG_VERSION'))) return cluster;
  const staging = path.join(tmpdir(), `.encore-test-cluster-${key}-${randomBytes(4).toString('hex')}`);
  try {
    await initialisePgliteDir(staging, EMBEDDED_INITDB_SETTINGS);
    if (!existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('PGlite made no cluster for the tests');
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
