import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CACHE_MAX_MB, EMBEDDED_CACHE_MIN_MB, embeddedCacheMb, openDatabase, type Database } from '../../src/platform/db/database.js';
import { loadConfig } from '../../src/config.js';

let root: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-cache-'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Opens the cluster in `dir` (with `cacheMb` when given), runs `work` on it, closes it. */
async function withDatabase(dir: string, cacheMb: number | undefined, work: (database: Database) => Promise<void>): Promise<void> {
  const database = await openDatabase({ url: undefined, pgliteDir: dir, pgliteCacheMb: cacheMb });
  try {
    await work(database);
  } finally {
    await database.close();
  }
}

async function sharedBuffers(database: Database): Promise<string> {
  const { rows } = await database.executor.executeSql('show shared_buffers', []);
  return (rows[0] as { shared_buffers?: string } | undefined)?.shared_buffers ?? '';
}

describe("the embedded database's buffer cache", () => {
  it('is sized to the database between its bounds, and grows with it at the next start', async () => {
    const dir = path.join(root, 'db');
    let firstMb = 0;
    await withDatabase(dir, undefined, async (first) => {
      // A new library's database is about 10 MB: a cache of its size, near the smallest.
      firstMb = Number.parseInt(await sharedBuffers(first), 10);
      expect(firstMb).toBeGreaterThanOrEqual(EMBEDDED_CACHE_MIN_MB);
      expect(firstMb).toBeLessThanOrEqual(12);
      // About 11 MB of rows (each about 1 KB, stored as is: short values are not compressed).
      await first.executor.executeSql('create table filler as select g as id, repeat(md5(g::text), 32) as body from generate_series(1, 10000) g', []);
    });
    const sized = await embeddedCacheMb(dir);
    expect(sized).toBeGreaterThan(firstMb + 8);
    expect(sized).toBeLessThan(EMBEDDED_CACHE_MAX_MB);

    await withDatabase(dir, undefined, async (second) => {
      expect(await sharedBuffers(second)).toBe(`${sized}MB`);
      await second.executor.executeSql('insert into filler select g, repeat(md5(g::text), 32) from generate_series(10001, 30000) g', []);
    });
    // Past the largest: the cache stops there.
    expect(await embeddedCacheMb(dir)).toBe(EMBEDDED_CACHE_MAX_MB);

    // EMBEDDED_DB_CACHE_MB wins over the sizing.
    await withDatabase(dir, loadConfig({ EMBEDDED_DB_CACHE_MB: '8' }).embeddedDbCacheMb, async (set) => {
      expect(await sharedBuffers(set)).toBe('8MB');
    });
  }, 60_000);

  it('is set up for its one connection: shared memory for 10 connections, none for replication', async () => {
    await withDatabase(path.join(root, 'settings'), undefined, async (database) => {
      const { rows } = await database.executor.executeSql(
        `select name, setting from pg_settings where name in ('max_connections', 'max_wal_senders', 'max_replication_slots') order by name`,
        [],
      );
      expect(rows).toEqual([
        { name: 'max_connections', setting: '10' },
        { name: 'max_replication_slots', setting: '0' },
        { name: 'max_wal_senders', setting: '0' },
      ]);
    });
  }, 60_000);

  it('is the smallest for a database in memory or a folder not made yet', async () => {
    expect(await embeddedCacheMb(undefined)).toBe(EMBEDDED_CACHE_MIN_MB);
    expect(await embeddedCacheMb(path.join(root, 'nothing here'))).toBe(EMBEDDED_CACHE_MIN_MB);
  });

  it('refuses an EMBEDDED_DB_CACHE_MB that is not a whole number of MB from 1', () => {
    for (const value of ['0', '-4', '2.5', 'lots', '99999']) {
      expect(() => loadConfig({ EMBEDDED_DB_CACHE_MB: value })).toThrow(/EMBEDDED_DB_CACHE_MB/);
    }
    expect(loadConfig({}).embeddedDbCacheMb).toBeUndefined();
  });
});
