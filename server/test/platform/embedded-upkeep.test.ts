import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { startEmbeddedUpkeep, type EmbeddedUpkeep } from '../../src/platform/db/embedded-upkeep.js';
import type { Logger } from '../../src/platform/logger.js';

const logger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/** PGlite runs no autovacuum: Encore's upkeep gives its tables statistics and reclaims dead rows. */
describe('upkeep of the embedded database', () => {
  let database: Database;
  let upkeep: EmbeddedUpkeep | undefined;
  const sql = async <T>(text: string): Promise<T[]> => (await database.executor.executeSql(text, [])).rows as T[];
  const facts = async () => {
    // The session's counts reach the statistics at most once a second unless asked.
    await sql('select pg_stat_force_next_flush()');
    return (
      await sql<{ reltuples: number; dead: number; analysed: boolean }>(
        `select c.reltuples::int as reltuples, s.n_dead_tup::int as dead, s.last_analyze is not null as analysed
           from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'upkeep_probe'`,
      )
    )[0];
  };

  beforeEach(async () => {
    database = await openDatabase({ url: undefined, pgliteDir: undefined });
    await sql('create table upkeep_probe (id serial primary key, owner int not null, body text not null)');
    await sql('create index upkeep_probe_owner on upkeep_probe (owner)');
  });
  afterEach(async () => {
    await upkeep?.stop();
    upkeep = undefined;
    await database.close();
  });

  it('analyses a table that grew and vacuums one with dead rows, then leaves both alone', async () => {
    upkeep = startEmbeddedUpkeep(database.executor, logger, { intervalMs: 3_600_000 });
    await sql(`insert into upkeep_probe (owner, body) select i % 7, repeat('x', 100) from generate_series(1, 3000) as i`);
    expect((await facts())?.reltuples).toBeLessThan(0);

    const first = await upkeep.runOnce();
    expect([...first.vacuumed, ...first.analysed]).toContain('public.upkeep_probe');
    expect(await facts()).toMatchObject({ reltuples: 3000, analysed: true });
    // The planner now knows the size: a seventh of the rows for one owner, not a guess.
    const [plan] = await sql<{ 'QUERY PLAN': string }>(`explain select * from upkeep_probe where owner = 3`);
    expect(Number(/rows=(\d+)/.exec(plan?.['QUERY PLAN'] ?? '')?.[1])).toBeGreaterThan(300);

    const idle = await upkeep.runOnce();
    expect([...idle.vacuumed, ...idle.analysed]).not.toContain('public.upkeep_probe');

    await sql('delete from upkeep_probe where id <= 2000');
    expect((await facts())?.dead).toBe(2000);
    const after = await upkeep.runOnce();
    expect(after.vacuumed).toContain('public.upkeep_probe');
    expect(await facts()).toMatchObject({ reltuples: 1000, dead: 0 });
  });

  it('runs on its own every interval, one pass at a time, and not after stop', async () => {
    const passes: string[] = [];
    const executor = {
      executeSql: async (text: string, values?: unknown[]) => {
        if (/^(vacuum|analyze)/.test(text)) passes.push(text);
        return database.executor.executeSql(text, values);
      },
    };
    upkeep = startEmbeddedUpkeep(executor, logger, { intervalMs: 40 });
    await sql(`insert into upkeep_probe (owner, body) select i % 7, 'y' from generate_series(1, 500) as i`);
    await expect.poll(async () => (await facts())?.reltuples, { timeout: 5_000 }).toBe(500);
    expect(passes.filter((text) => text.includes('upkeep_probe'))).toHaveLength(1);

    await upkeep.stop();
    await sql(`insert into upkeep_probe (owner, body) select i % 7, 'z' from generate_series(1, 500) as i`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(passes.filter((text) => text.includes('upkeep_probe'))).toHaveLength(1);
    expect((await facts())?.reltuples).toBe(500);
  });

  it('a failed pass is logged and the next one still runs', async () => {
    let failures = 1;
    const warnings: string[] = [];
    const executor = {
      executeSql: async (text: string, values?: unknown[]) => {
        if (failures > 0 && /^(vacuum|analyze)/.test(text)) {
          failures -= 1;
          throw new Error('disk full');
        }
        return database.executor.executeSql(text, values);
      },
    };
    const watched: Logger = { ...logger, warn: (_: unknown, message?: string) => void warnings.push(message ?? '') };
    upkeep = startEmbeddedUpkeep(executor, watched, { intervalMs: 40 });
    await sql(`insert into upkeep_probe (owner, body) select i % 7, 'y' from generate_series(1, 500) as i`);
    await expect.poll(async () => (await facts())?.reltuples, { timeout: 5_000 }).toBe(500);
    expect(warnings).toEqual(['embedded database upkeep failed; it is tried again later']);
  });
});
