import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockEmbeddedDatabase } from './embedded-lock.js';
import {
  EMBEDDED_CACHE_MAX_MB,
  EMBEDDED_CACHE_MIN_MB,
  EMBEDDED_INITDB_ARGS,
  EMBEDDED_INITDB_SETTINGS,
  EMBEDDED_SETTINGS,
  MIGRATIONS_FOLDER,
  walSettings,
} from './embedded-settings.js';
import { MIGRATIONS_TABLE, migrateOrExplain } from './migrations.js';
import { initialisePgliteDir } from './pglite-initdb.js';
import { embeddedTemplateFile } from './pglite-template.js';
/**
 * The query builder every repository receives; the same on PGlite and PostgreSQL. It is typed by
 * no schema: each repository names its own tables (drizzle's relational `db.query` is not used),
 * so the platform knows no feature's tables.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** What pg-boss needs to run its SQL on our connection. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  readonly driver: 'pglite' | 'postgres';
  readonly db: Db;
  readonly executor: SqlExecutor;
  /** Present on PostgreSQL: pg-boss opens its own pool from it. */
  readonly connectionString: string | undefined;
  check(): Promise<void>;
  /**
   * LISTENs on `channel`: `onMessage` gets each NOTIFY payload, from this process or (on
   * PostgreSQL) any other. Returns the unsubscribe. `options.applicationName` names the
   * listening connection (other processes find it in pg_stat_activity); `options.onState` hears
   * when it is lost (notifications may then be missed) and listening again.
   */
  listen(channel: string, onMessage: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * PGlite on disk only: the data folder as a tar, taken between two queries (PGlite runs one
   * at a time), so it is a consistent state; a transaction open across it rolls back on restore.
   */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

export { EMBEDDED_CACHE_MAX_MB, EMBEDDED_CACHE_MIN_MB, EMBEDDED_INITDB_SETTINGS } from './embedded-settings.js';

export interface ListenOptions {
  applicationName?: string;
  onState?: (listening: boolean) => void;
}
/** Any constant works; it only has to be the same in every Encore process. */
const MIGRATION_LOCK_ID = 7_243_111;

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; otherwise PGlite in `pgliteDir` (or in memory when undefined). */
  url: string | undefined;
  pgliteDir: string | undefined;
  /** PGlite's shared buffers in MB; undefined: `embeddedCacheMb` of the folder. */
  pgliteCacheMb?: number | undefined;
  /** The migrations to apply (undefined: the ones Encore ships, server/drizzle). */
  migrationsFolder?: string | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_FOLDER;
  return options.url ? openPostgres(options.url, migrationsFolder) : openPglite(options.pgliteDir, options.pgliteCacheMb, migrationsFolder);
}

/**
 * PGlite's shared buffers for the cluster in `dir`: the size of its largest database (Encore's;
 * the templates are small), rounded up to a MB, between EMBEDDED_CACHE_MIN_MB and
 * EMBEDDED_CACHE_MAX_MB. In PGlite every byte of shared buffers is resident from the start
 * (Emscripten's mmap zero-fills the whole segment), so buffers the database cannot fill are
 * memory spent for nothing: 32 MB on an empty library, about 10 MB of data, held 18-30 MiB of
 * RSS more than 16 MB does, and 16 MB about 6 MiB more than its own 10. A 50,000-song library
 * (about 100 MB) gets 32 MB: at 16 MB its searches with a typo (p95 38 ms) went past 40 ms. A
 * library that outgrows its cache gets more at the next start.
 */
export async function embeddedCacheMb(dir: string | undefined): Promise<number> {
  let largest = 0;
  if (dir) {
    const base = path.join(dir, 'base');
    const databases = await readdir(base).catch(() => [] as string[]);
    for (const database of databases) largest = Math.max(largest, await folderBytes(path.join(base, database)));
  }
  return Math.min(EMBEDDED_CACHE_MAX_MB, Math.max(EMBEDDED_CACHE_MIN_MB, Math.ceil(largest / 2 ** 20)));
}

async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  let bytes = 0;
  for (const entry of entries) {
    if (entry.isFile())
      bytes += await stat(path.join(folder, entry.name)).then(
        (info) => info.size,
        () => 0,
      );
  }
  return bytes;
}

async function openPglite(dir: string | undefined, cacheMb: number | undefined, migrationsFolder: string): Promise<Database> {
  if (dir) await mkdir(dir, { recursive: true });
  const release = dir ? await lockEmbeddedDatabase(dir) : undefined;
  try {
    return await startPglite(dir, cacheMb, migrationsFolder, release);
  } catch (error) {
    await release?.();
    throw error;
  }
}

async function startPglite(
  dir: string | undefined,
  cacheMb: number | undefined,
  migrationsFolder: string,
  release: (() => Promise<void>) | undefined,
): Promise<Database> {
  // A new folder gets the migrated empty cluster the build made, unpacked; without one, its
  // cluster is made in a child process, whose initdb peak goes with it. The template holds the
  // shipped migrations: other ones start from initdb.
  const template = migrationsFolder === MIGRATIONS_FOLDER ? await embeddedTemplateFile() : undefined;
  if (dir) await initialisePgliteDir(dir, EMBEDDED_INITDB_SETTINGS, { initdbArgs: EMBEDDED_INITDB_ARGS, template });
  // PostgreSQL's default 128 MB of shared buffers would be most of an idle PGlite's memory; a
  // personal library's hot set fits in far less, and reads past it still hit the OS page cache.
  const postgresqlconf = [`shared_buffers=${cacheMb ?? (await embeddedCacheMb(dir))}MB`, ...EMBEDDED_SETTINGS, ...(await walSettings(dir))];
  // pg_trgm and unaccent: library search (migration 0008 creates them).
  const options = { postgresqlconf, initDbStartParams: [...EMBEDDED_INITDB_ARGS], extensions: { pg_trgm, unaccent } };
  const client = dir ? await PGlite.create(dir, options) : await PGlite.create(options);
  const db: Db = drizzlePglite({ client });
  try {
    await migrateOrExplain(
      migrationsFolder,
      () => migratePglite(drizzlePglite({ client }), { migrationsFolder }),
      async () => newestMigration((await client.query<{ created_at: string | null }>(NEWEST_MIGRATION)).rows),
    );
  } catch (error) {
    // Closed, so the folder is left as a clean shutdown leaves it (and this process may open it again).
    await client.close().catch(() => undefined);
    throw error;
  }
  const executor: SqlExecutor = {
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      // pg-boss sends several statements in one parameterless string; only exec takes those.
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
  return {
    driver: 'pglite',
    db,
    executor,
    connectionString: undefined,
    async check() {
      await client.query('select 1');
    },
    async listen(channel, onMessage, options) {
      const unlisten = await client.listen(channel, onMessage);
      // One process, one connection: it is never lost while the database is open.
      options?.onState?.(true);
      return unlisten;
    },
    ...(dir
      ? {
          async snapshot() {
            // Between two queries, even inside a transaction (no CHECKPOINT first: a query would
            // wait for an open transaction, which may be waiting for the backup's held deletes).
            // The copy is what a crash would leave: the restored folder replays its write-ahead
            // log, and a transaction open at the snapshot is rolled back.
            return client.dumpDataDir('none');
          },
        }
      : {}),
    async close() {
      if (!client.closed) await client.close();
      await release?.();
    },
  };
}

/** The newest applied migration's time (drizzle's `created_at`, the journal's `when`). */
const NEWEST_MIGRATION = `select max(created_at)::text as created_at from ${MIGRATIONS_TABLE}`;

function newestMigration(rows: { created_at: string | null }[]): number | undefined {
  const value = rows[0]?.created_at;
  return value === null || value === undefined ? undefined : Number(value);
}

async function openPostgres(url: string, migrationsFolder: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it and queries report their own errors.
  });
  try {
    await migratePostgres(pool, migrationsFolder);
  } catch (error) {
    // A start that failed leaves no connection behind.
    await pool.end().catch(() => undefined);
    throw error;
  }
  const db: Db = drizzlePg({ client: pool });
  return {
    driver: 'postgres',
    db,
    executor: { executeSql: (text, values) => pool.query(text, values) },
    connectionString: url,
    async check() {
      await db.execute(sql`select 1`);
    },
    listen: (channel, onMessage, options) => listenOnPostgres(url, channel, onMessage, options),
    async close() {
      await pool.end();
    },
  };
}

async function migratePostgres(pool: pg.Pool, migrationsFolder: string): Promise<void> {
  const migrationClient = await pool.connect();
  try {
    // Several Encore processes may start together: one migrates, the others wait for it.
    await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateOrExplain(
      migrationsFolder,
      () => migratePg(drizzlePg({ client: migrationClient }), { migrationsFolder }),
      async () => newestMigration((await migrationClient.query<{ created_at: string | null }>(NEWEST_MIGRATION)).rows),
    );
  } finally {
    await migrationClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    migrationClient.release();
  }
}

/** One dedicated connection per listener, reconnected when it drops (notifications meanwhile are lost). */
async function listenOnPostgres(url: string, channel: string, onMessage: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, ...(options.applicationName ? { application_name: options.applicationName } : {}) });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    next.on('error', () => {
      options.onState?.(false);
      void next.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    client = next;
    if (!stopped) options.onState?.(true);
  };
  await connect();
  return async () => {
    stopped = true;
    options.onState?.(false);
    await client?.end().catch(() => undefined);
  };
}
