import type { TaskStore } from '../tasks/task.store.js';

/** How the admin page sees one queue: jobs waiting (new or to retry), running, and failed for good. */
export interface QueueCounts {
  name: string;
  waiting: number;
  running: number;
  failed: number;
}

/** A job as the admin page lists it (waiting, running or failed), newest first. */
export interface QueuedJob {
  id: string;
  queue: string;
  state: 'waiting' | 'running' | 'failed';
  createdAt: Date;
  /** When it failed for good (failed jobs only). */
  endedAt: Date | null;
  /** The error of its last attempt (failed jobs only). */
  error: string | null;
  attempts: number;
}

/** Looking at the queues and acting on one job: what the admin page's queue panel does. */
export interface JobQueueAdmin {
  /** Every declared queue, with its counts (zero when it holds nothing). */
  counts(): Promise<QueueCounts[]>;
  /** The newest jobs that wait, run or failed, up to `limit` (failed jobs of the last `failedDays` days). */
  jobs(limit: number): Promise<QueuedJob[]>;
  /** Runs a failed job again (its task, if any, is live again); false when it is not a failed job of that queue. */
  retry(queue: string, id: string): Promise<boolean>;
  /** Cancels a waiting or running job (a running one's task is told, so its handler stops); false when there is none to cancel. */
  cancel(queue: string, id: string): Promise<boolean>;
}

interface Deps {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  tasks: TaskStore;
  /** The declared queues. */
  names(): string[];
  /** Wakes the workers of a queue with new work. */
  wake(queue: string): Promise<void>;
}

const STATES = `CASE WHEN state IN ('created', 'retry') THEN 'waiting' WHEN state = 'active' THEN 'running' ELSE 'failed' END`;

/** pg-boss's job table read and changed as pg-boss itself does (its retry and cancel statements), plus the tasks. */
export function jobQueueAdmin(deps: Deps): JobQueueAdmin {
  const taskOf = async (queue: string, id: string): Promise<string | undefined> => {
    const { rows } = await deps.executeSql(`SELECT data->>'_task' AS task FROM pgboss.job WHERE name = $1 AND id = $2::uuid`, [queue, id]);
    return (rows[0] as { task: string | null } | undefined)?.task ?? undefined;
  };
  const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  return {
    async counts() {
      const names = deps.names();
      const { rows } = await deps.executeSql(
        `SELECT name, ${STATES} AS state, count(*)::int AS n FROM pgboss.job
          WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed') GROUP BY 1, 2`,
        [names],
      );
      const byName = new Map(names.map((name) => [name, { name, waiting: 0, running: 0, failed: 0 }]));
      for (const row of rows as { name: string; state: 'waiting' | 'running' | 'failed'; n: number }[]) {
        const entry = byName.get(row.name);
        if (entry) entry[row.state] += row.n;
      }
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async jobs(limit) {
      const { rows } = await deps.executeSql(
        `SELECT id::text, name, ${STATES} AS state, created_on, CASE WHEN state = 'failed' THEN completed_on END AS ended_on,
                CASE WHEN state = 'failed' THEN coalesce(output->>'message', output::text) END AS error, retry_count
           FROM pgboss.job WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed')
          ORDER BY CASE WHEN state = 'active' THEN 0 WHEN state = 'failed' THEN 2 ELSE 1 END, created_on DESC LIMIT $2`,
        [deps.names(), limit],
      );
      return (
        rows as {
          id: string;
          name: string;
          state: QueuedJob['state'];
          created_on: Date | string;
          ended_on: Date | string | null;
          error: string | null;
          retry_count: number;
        }[]
      ).map((row) => ({
        id: row.id,
        queue: row.name,
        state: row.state,
        createdAt: new Date(row.created_on),
        endedAt: row.ended_on === null ? null : new Date(row.ended_on),
        error: row.error,
        attempts: row.retry_count + (row.state === 'waiting' ? 0 : 1),
      }));
    },
    async retry(queue, id) {
      if (!isUuid(id) || !deps.names().includes(queue)) return false;
      const task = await taskOf(queue, id);
      const { rows } = await deps.executeSql(
        `UPDATE pgboss.job SET state = 'retry', retry_limit = retry_limit + 1, start_after = now()
          WHERE name = $1 AND id = $2::uuid AND state = 'failed' RETURNING 1`,
        [queue, id],
      );
      if (rows.length === 0) return false;
      if (task) await deps.tasks.reopen(task);
      await deps.wake(queue);
      return true;
    },
    async cancel(queue, id) {
      if (!isUuid(id) || !deps.names().includes(queue)) return false;
      const task = await taskOf(queue, id);
      const { rows } = await deps.executeSql(
        `UPDATE pgboss.job SET completed_on = now(), state = 'cancelled'
          WHERE name = $1 AND id = $2::uuid AND state IN ('created', 'retry', 'active') RETURNING 1`,
        [queue, id],
      );
      if (rows.length === 0) return false;
      // A running handler watches its task and stops when it is no longer running.
      if (task) await deps.tasks.cancelAny(task);
      return true;
    },
  };
}
