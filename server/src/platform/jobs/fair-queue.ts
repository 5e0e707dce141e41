import type { SqlExecutor } from '../db/database.js';

/**
 * Fair queues: a job declared `fair` takes its turn among its owners' jobs instead of its place
 * in a line, so one user with 50 renders waiting does not delay another user's first.
 *
 * Each job of a fair queue gets a round, kept as pg-boss's priority (its negative: pg-boss
 * hands out a queue's jobs by priority, highest first, then oldest first, with
 * `FOR UPDATE SKIP LOCKED`). An owner's next job goes one round after their last one still
 * waiting or running, and never before the round the queue has reached: the highest round
 * among its running jobs (or, none running, the lowest among the waiting ones). So the queue
 * serves round 1 of every owner who has one, then round 2, and so on: users in turn, each
 * newcomer at the front. Start-time fair queueing, with every job costing one.
 *
 * Nothing runs beside pg-boss: the order is in the rows every process fetches from, so it holds
 * with any number of worker processes on PostgreSQL, and on PGlite. Two jobs of the same owner
 * sent at the same instant may share a round; they then keep their order of arrival.
 */

/** The JSON field of a fair job's data that names its owner. */
export const FAIR_OWNER_FIELD = '_owner';

/** pg-boss's priority for the next job of `owner` in `queue`. */
export async function fairPriority(executor: SqlExecutor, queue: string, owner: string): Promise<number> {
  const { rows } = await executor.executeSql(
    `WITH live AS (
       SELECT state, -priority AS round, data->>'${FAIR_OWNER_FIELD}' AS owner
         FROM pgboss.job
        WHERE name = $1 AND state IN ('created', 'retry', 'active')
     )
     SELECT greatest(
              coalesce((SELECT max(round) FROM live WHERE state = 'active'), (SELECT min(round) FROM live), 0),
              coalesce((SELECT max(round) + 1 FROM live WHERE owner = $2), 0)
            )::int AS round`,
    [queue, owner],
  );
  const round = (rows[0] as { round: number } | undefined)?.round ?? 0;
  return -round;
}

/**
 * How many jobs of the task's queue are running, or waiting to be handed out before the task's
 * job (pg-boss's order: priority, then age), leaving out those whose task ended meanwhile (a
 * cancelled render's job waits for a worker to drop it). Undefined when the task has no waiting job.
 */
export async function jobsAheadOfTask(executor: SqlExecutor, taskId: string): Promise<number | undefined> {
  const { rows } = await executor.executeSql(
    `WITH mine AS (
       SELECT name, priority, created_on, id FROM pgboss.job
        WHERE state < 'active' AND data->>'_task' = $1
        ORDER BY created_on DESC LIMIT 1
     )
     SELECT (SELECT count(*) FROM pgboss.job j
              WHERE j.name = mine.name AND j.id <> mine.id
                AND (j.state = 'active'
                     OR (j.state < 'active'
                         AND (j.priority > mine.priority OR (j.priority = mine.priority AND (j.created_on, j.id) < (mine.created_on, mine.id)))))
                AND (j.data->>'_task' IS NULL
                     OR EXISTS (SELECT 1 FROM tasks t WHERE t.id::text = j.data->>'_task' AND t.state IN ('queued', 'running'))))::int AS ahead
       FROM mine`,
    [taskId],
  );
  return (rows[0] as { ahead: number } | undefined)?.ahead;
}
