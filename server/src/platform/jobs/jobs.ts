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

const QUEUES: { name: JobName; retryLimit: number; retryDelay: number; retryBackoff: boolean }[] = [
  { name: 'mail.send', retryLimit: 5, retryDelay: 10, retryBackoff: true },
  { name: 'maintenance.cleanup', retryLimit: 1, retryDelay: 60, retryBackoff: false },
  { name: 'auth.password-reset-request', retryLimit: 3, retryDelay: 5, retryBackoff: true },
];

export async function startJobs(database: Database, logger: Logger, options: { schedule: boolean }): Promise<Jobs> {
  const boss = new PgBoss(
    database.connectionString
      ? { connectionString: database.connectionString, max: 4, schedule: options.schedule }
      : // PGlite is one connection in this process, so pg-boss shares it through the executor.
        { db: { executeSql: (text, values) => database.executor.executeSql(text, values) }, schedule: options.schedule },
  );
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const queue of QUEUES) {
    await boss.createQueue(queue.name, {
      name: queue.name,
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelay,
      retryBackoff: queue.retryBackoff,
    });
  }
  if (options.schedule) await boss.schedule('maintenance.cleanup', '17 * * * *', {});

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
