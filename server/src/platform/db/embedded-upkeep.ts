import type { Logger } from '../logger.js';
import type { SqlExecutor } from './database.js';

/**
 * PostgreSQL's autovacuum, for the embedded database. PGlite runs no background workers, so
 * without this no table ever got planner statistics after the first start and no dead row was
 * ever reclaimed: with 2,500 likes the favorites page was planned as if `song_likes` were empty
 * (23 ms instead of 1 on 50,000 songs), and pg-boss's job tables only ever grew.
 *
 * Every `intervalMs` one cheap look at `pg_stat_user_tables` picks the tables past
 * autovacuum's own default thresholds; each is vacuumed or analysed in turn. PostgreSQL
 * servers do this themselves, so it runs on PGlite only.
 */
export interface UpkeepOptions {
  /** Between two looks at the statistics (autovacuum's naptime is one minute). */
  intervalMs: number;
}

export const DEFAULT_UPKEEP: UpkeepOptions = { intervalMs: 60_000 };

export interface UpkeepPass {
  vacuumed: string[];
  analysed: string[];
}

export interface EmbeddedUpkeep {
  /** One look and whatever it finds to do; passes never overlap. */
  runOnce(): Promise<UpkeepPass>;
  /** No pass starts after this; one under way is waited for (a VACUUM cannot be interrupted). */
  stop(): Promise<void>;
}

/**
 * autovacuum_vacuum_threshold 50 + scale factor 0.2 of the live rows, the insert threshold 1000
 * + 0.2 (which keeps the visibility map fresh for index-only scans of append-only tables), and
 * autovacuum_analyze_threshold 50 + scale factor 0.1. A table that holds rows but was never
 * analysed (statistics reset by a crash, say) counts as due.
 */
const DUE_TABLES = `
  select format('%I.%I', s.schemaname, s.relname) as name,
         (s.n_dead_tup > 50 + 0.2 * s.n_live_tup or s.n_ins_since_vacuum > 1000 + 0.2 * s.n_live_tup) as vacuum
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
   where s.n_dead_tup > 50 + 0.2 * s.n_live_tup
      or s.n_ins_since_vacuum > 1000 + 0.2 * s.n_live_tup
      or s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup
      or (c.reltuples < 0 and pg_relation_size(c.oid) > 0)
   order by s.relname`;

export function startEmbeddedUpkeep(executor: SqlExecutor, logger: Logger, options: UpkeepOptions = DEFAULT_UPKEEP): EmbeddedUpkeep {
  let stopped = false;
  let running: Promise<UpkeepPass> | undefined;

  const pass = async (): Promise<UpkeepPass> => {
    const done: UpkeepPass = { vacuumed: [], analysed: [] };
    // This session's own counts reach the statistics at most once a second; now, first.
    await executor.executeSql('select pg_stat_force_next_flush()', []);
    const { rows } = await executor.executeSql(DUE_TABLES, []);
    for (const row of rows as { name: string; vacuum: boolean }[]) {
      if (stopped) break;
      const started = performance.now();
      // The name comes from format('%I.%I'): quoted as PostgreSQL quotes identifiers.
      await executor.executeSql(row.vacuum ? `vacuum (analyze) ${row.name}` : `analyze ${row.name}`);
      (row.vacuum ? done.vacuumed : done.analysed).push(row.name);
      logger.debug({ table: row.name, vacuum: row.vacuum, ms: Math.round(performance.now() - started) }, 'embedded database upkeep');
    }
    return done;
  };

  const runOnce = (): Promise<UpkeepPass> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (stopped || running) return;
    runOnce().catch((error: unknown) => {
      if (!stopped) logger.warn({ err: error }, 'embedded database upkeep failed; it is tried again later');
    });
  }, options.intervalMs);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
