import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { JobHandlers, JobMap, JobName } from './jobs.types.js';

export interface Jobs {
  send<N extends JobName>(name: N, data: JobMap[N], options?: { singletonKey?: string }): Promise<string | null>;
  /** Starts consuming every queue in this process. */
  work(handlers: JobHandlers): Promise<void>;
  check(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One line per queue. `expireInSeconds` is how long one attempt may run: past it the job
 * counts as dead (its process crashed) and is retried. Keep it above the work's own time
 * limits (the SMTP timeouts for mail) and well below pg-boss's 15-minute default.
 */
const QUEUES: { name: JobName; retryLimit: number; retryDelay: number; retryBackoff: boolean; expireInSeconds: number }[] = [
  { name: 'mail.send', retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  { name: 'maintenance.cleanup', retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 30 * 60 },
  { name: 'auth.password-reset-request', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
];

/** How often pg-boss fails attempts past their expiry (once across all processes). */
const MAINTENANCE_INTERVAL_SECONDS = 30;

export async function startJobs(database: Database, logger: Logger): Promise<Jobs> {
  const common = { schedule: true, maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS };
  const boss = new PgBoss(
    database.connectionString
      ? { connectionString: database.connectionString, max: 4, ...common }
      : // PGlite is one connection in this process, so pg-boss shares it through the executor.
        { db: { executeSql: (text, values) => database.executor.executeSql(text, values) }, ...common },
  );
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const queue of QUEUES) {
    const options = { name: queue.name, retryLimit: queue.retryLimit, retryDelay: queue.retryDelay, retryBackoff: queue.retryBackoff, expireInSeconds: queue.expireInSeconds };
    await boss.createQueue(queue.name, options);
    // createQueue leaves an existing queue as it was: bring its settings up to date.
    await boss.updateQueue(queue.name, options);
  }
  await recoverInterruptedJobs(boss, database, logger);
  await boss.schedule('maintenance.cleanup', '17 * * * *', {});

  return {
    send: (name, data, sendOptions) => boss.send(name, data as object, sendOptions ?? {}),
    async work(handlers) {
      for (const queue of QUEUES) {
        const handler = handlers[queue.name] as (data: unknown, job: { id: string; name: JobName }) => Promise<void>;
        await boss.work(queue.name, { pollingIntervalSeconds: 1 }, async (jobs) => {
          for (const job of jobs) {
            try {
              await handler(job.data, { id: job.id, name: queue.name });
            } catch (error) {
              logger.warn({ err: error, job: job.id, queue: queue.name }, 'job failed; pg-boss will retry it');
              throw error;
            }
          }
        });
      }
    },
    async check() {
      await boss.getQueueSize('mail.send');
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

/**
 * Jobs a crashed process left `active` are retried now rather than at the next maintenance
 * pass. With PGlite this is the only process, so every active job is such a leftover; on
 * PostgreSQL another live process may be running them, so only those past their expiry are.
 */
async function recoverInterruptedJobs(boss: PgBoss, database: Database, logger: Logger): Promise<void> {
  const onlyExpired = database.driver === 'pglite' ? '' : 'AND started_on + expire_in < now()';
  const { rows } = await boss.getDb().executeSql(`SELECT id, name FROM pgboss.job WHERE state = 'active' ${onlyExpired}`, []);
  const byQueue = new Map<string, string[]>();
  for (const row of rows as { id: string; name: string }[]) byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), row.id]);
  for (const [name, ids] of byQueue) {
    await boss.fail(name, ids);
    // Retry at once: the attempt did not fail, its process died.
    await boss.getDb().executeSql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`, [name, ids]);
  }
  if (byQueue.size > 0) logger.info({ count: [...byQueue.values()].flat().length }, 'retrying jobs an interrupted run left active');
}
