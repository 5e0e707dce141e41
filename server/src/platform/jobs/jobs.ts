import { isDeepStrictEqual } from 'node:util';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { TaskStore } from '../tasks/task.store.js';
import { createJobLiveness } from './job-liveness.js';
import { runJob } from './job-runner.js';
import type { AnyJobDefinition, JobKind, JobSelection } from './jobs.types.js';

export interface SendOptions {
  singletonKey?: string;
  /** The user-visible task this job works for (see platform/tasks). */
  taskId?: string;
}

export interface Jobs {
  /** Queues a job; throws when the payload does not match the job's schema. */
  send<P>(kind: JobKind<P>, payload: P, options?: SendOptions): Promise<string | null>;
  /** Creates the queues of these jobs with their policies and keeps their schedules (every process does). */
  register(definitions: readonly AnyJobDefinition[]): Promise<void>;
  /** Starts working the registered jobs this process takes: all, only light ones, or none. */
  work(selection: JobSelection): Promise<void>;
  /** Of these task ids, those whose job is still waiting, retrying or running. */
  tasksWithLiveJobs(taskIds: readonly string[]): Promise<Set<string>>;
  /** Retries now the jobs of workers found dead (PostgreSQL; see job-liveness.ts). Returns how many. */
  retryJobsOfDeadWorkers(): Promise<number>;
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** How often pg-boss fails attempts past their expiry (once across all processes). */
const MAINTENANCE_INTERVAL_SECONDS = 30;
/** How often every process looks for workers that died (PostgreSQL; see job-liveness.ts). */
export const DEAD_WORKER_SWEEP_MS = 10_000;

export async function startJobs(database: Database, logger: Logger, tasks: TaskStore): Promise<Jobs> {
  const common = { schedule: true, maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS };
  const boss = new PgBoss(
    database.connectionString
      ? { connectionString: database.connectionString, max: 4, ...common }
      : // PGlite is one connection in this process, so pg-boss shares it through the executor.
        { db: { executeSql: (text, values) => database.executor.executeSql(text, values) }, ...common },
  );
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  await recoverInterruptedJobs(boss, database, logger);
  const liveness = createJobLiveness(database, logger);
  const retryJobsOfDeadWorkers = async () => {
    const handedBack = await liveness.sweep();
    await retryNow(boss, handedBack);
    if (handedBack.length > 0) logger.info({ count: handedBack.length }, 'retrying the jobs of a worker process that died');
    return handedBack.length;
  };
  const sweep = () => retryJobsOfDeadWorkers().catch((error: unknown) => logger.warn({ err: error }, 'could not look for dead workers'));
  let sweeping = sweep();
  const sweeper = database.driver === 'postgres' ? setInterval(() => (sweeping = sweep()), DEAD_WORKER_SWEEP_MS).unref() : undefined;
  const registered = new Map<string, AnyJobDefinition>();

  return {
    async send(kind, payload, options = {}) {
      // Every process registers every declared job, whether it works it or not.
      if (!registered.has(kind.name)) throw new Error(`Job ${kind.name} is not declared`);
      const parsed = kind.payload.safeParse(payload);
      if (!parsed.success) throw new Error(`The payload of job ${kind.name} does not match its schema: ${parsed.error.message}`);
      const data = options.taskId ? { ...(parsed.data as object), _task: options.taskId } : (parsed.data as object);
      return boss.send(kind.name, data, options.singletonKey ? { singletonKey: options.singletonKey } : {});
    },
    async register(definitions) {
      // What the database already holds, read once: a restart with the same declarations
      // writes nothing (two queries, not three per job).
      const [queues, schedules] = await Promise.all([boss.getQueues(), boss.getSchedules()]);
      const queueOf = new Map(queues.map((queue) => [queue.name, queue]));
      const scheduleOf = new Map(schedules.map((schedule) => [schedule.name, schedule]));
      for (const job of definitions) {
        if (registered.has(job.name)) throw new Error(`Job ${job.name} is declared twice`);
        registered.set(job.name, job);
        const options = {
          name: job.name,
          retryLimit: job.retry.limit,
          retryDelay: job.retry.delaySeconds,
          retryBackoff: job.retry.backoff,
          expireInSeconds: job.expireInSeconds,
        };
        const existing = queueOf.get(job.name);
        if (!existing) await boss.createQueue(job.name, options);
        // createQueue leaves an existing queue as it was: bring its settings up to date.
        else if (!sameQueueSettings(existing, options)) await boss.updateQueue(job.name, options);
        // Every process keeps the schedule (pg-boss sends each scheduled job once whoever keeps it),
        // so it holds whatever WORKER says; whoever works the queue runs it.
        const schedule = scheduleOf.get(job.name);
        if (job.schedule && !(schedule && schedule.cron === job.schedule.cron && isDeepStrictEqual(schedule.data ?? null, job.schedule.payload ?? null))) {
          await boss.schedule(job.name, job.schedule.cron, job.schedule.payload as object);
        }
      }
    },
    async work(selection) {
      if (selection === 'none') return;
      await liveness.register();
      for (const job of registered.values()) {
        if (selection === 'light' && job.weight !== 'light') continue;
        // pg-boss 10 has no per-process concurrency setting: each worker takes one job at a
        // time, so `concurrency` workers run at most that many at once.
        for (let i = 0; i < job.concurrency; i++) {
          await boss.work(job.name, { pollingIntervalSeconds: 1, batchSize: 1, includeMetadata: true }, async (batch) => {
            for (const entry of batch) await runJob(job, entry, { boss, tasks, logger, liveness });
          });
        }
      }
    },
    async tasksWithLiveJobs(taskIds) {
      if (taskIds.length === 0) return new Set();
      const { rows } = await boss
        .getDb()
        .executeSql(`SELECT DISTINCT data->>'_task' AS task FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND data->>'_task' = ANY($1::text[])`, [
          [...taskIds],
        ]);
      return new Set((rows as { task: string }[]).map((row) => row.task));
    },
    retryJobsOfDeadWorkers,
    async check() {
      await boss.getDb().executeSql('SELECT 1 FROM pgboss.version', []);
    },
    async stop() {
      clearInterval(sweeper);
      await sweeping;
      await boss.stop({ graceful: true, timeout: 10_000 });
      await liveness.stop();
    },
  };
}

/**
 * Jobs a crashed process left `active` are retried now rather than at the next maintenance
 * pass. With PGlite this is the only process, so every active job is such a leftover; on
 * PostgreSQL another live process may be running them, so only those past their expiry are
 * here; the liveness sweep (job-liveness.ts) finds those of a dead process long before.
 */
async function recoverInterruptedJobs(boss: PgBoss, database: Database, logger: Logger): Promise<void> {
  const onlyExpired = database.driver === 'pglite' ? '' : 'AND started_on + expire_in < now()';
  const { rows } = await boss.getDb().executeSql(`SELECT id AS "jobId", name AS queue FROM pgboss.job WHERE state = 'active' ${onlyExpired}`, []);
  const jobs = rows as { jobId: string; queue: string }[];
  await retryNow(boss, jobs);
  if (jobs.length > 0) logger.info({ count: jobs.length }, 'retrying jobs an interrupted run left active');
}

/** Fails these active jobs as attempts whose process died, and retries them at once. */
async function retryNow(boss: PgBoss, jobs: readonly { queue: string; jobId: string }[]): Promise<void> {
  const byQueue = new Map<string, string[]>();
  for (const { queue, jobId } of jobs) byQueue.set(queue, [...(byQueue.get(queue) ?? []), jobId]);
  for (const [name, claimed] of byQueue) {
    // Only those still active: one that completed, or was failed, before its process died is left as it is.
    const { rows } = await boss.getDb().executeSql(`SELECT id FROM pgboss.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`, [name, claimed]);
    const ids = (rows as { id: string }[]).map((row) => row.id);
    if (ids.length === 0) continue;
    await boss.fail(name, ids);
    // Retry at once: the attempt did not fail, its process died.
    await boss.getDb().executeSql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`, [name, ids]);
  }
}

type QueueSettings = Pick<PgBoss.Queue, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'>;

function sameQueueSettings(stored: QueueSettings, wanted: QueueSettings): boolean {
  return (
    stored.retryLimit === wanted.retryLimit &&
    stored.retryDelay === wanted.retryDelay &&
    Boolean(stored.retryBackoff) === Boolean(wanted.retryBackoff) &&
    stored.expireInSeconds === wanted.expireInSeconds
  );
}
