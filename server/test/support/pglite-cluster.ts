import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_CACHE_MIN_MB, EMBEDDED_INITDB_SETTINGS, openDatabase } from '../../src/platform/db/database.js';
import { initialisePgliteDir } from '../../src/platform/db/pglite-initdb.js';

/** The migrations a test database starts with (server/drizzle). */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** A fingerprint of the migrations: a seed made from other migrations is not used. */
export async function migrationsFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else hash.update(entry.name).update(await readFile(full));
    }
  };
  await walk(MIGRATIONS_DIR);
  return hash.digest('hex').slice(0, 16);
}

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
  const require = createRequire(import.meta.url);
  const pglitePackage = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const version = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify([version, EMBEDDED_INITDB_SETTINGS, await migrationsFingerprint()]))
    .digest('hex')
    .slice(0, 16);
  const cluster = path.join(tmpdir(), `encore-test-cluster-${key}`);
  if (existsSync(path.join(cluster, 'PG_VERSION'))) return cluster;
  const staging = path.join(tmpdir(), `.encore-test-cluster-${key}-${randomBytes(4).toString('hex')}`);
  try {
    await initialisePgliteDir(staging, EMBEDDED_INITDB_SETTINGS);
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
