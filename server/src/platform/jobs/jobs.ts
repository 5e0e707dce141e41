import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { TaskStore } from '../tasks/task.store.js';
import { FAIR_OWNER_FIELD, fairPriority, jobsAheadOfTask } from './fair-queue.js';
import { createJobLiveness, type ClaimedJob } from './job-liveness.js';
import { jobQueueAdmin, type JobQueueAdmin } from './job-queue.admin.js';
import { runJob } from './job-runner.js';
import { cronOf, keepSchedules, type Schedules } from './job-schedules.js';
import type { AnyJobDefinition, JobKind, JobSelection } from './jobs.types.js';

export interface SendOptions {
  singletonKey?: string;
  /**
   * With `singletonKey`: one job of that key per slot of this many seconds (by the database's
   * clock); a send finding one in its slot queues nothing and answers null.
   */
  singletonSeconds?: number;
  /** Not handed out before this many seconds have passed. */
  startAfterSeconds?: number;
  /** The user-visible task this job works for (see platform/tasks). */
  taskId?: string;
  /** Whose job it is: a job declared `fair` takes its turn among its owners' (fair-queue.ts). */
  owner?: string;
}

export interface Jobs {
  /** Queues a job; throws when the payload does not match the job's schema. */
  send<P>(kind: JobKind<P>, payload: P, options?: SendOptions): Promise<string | null>;
  /** Creates the queues of these jobs with their policies and keeps their schedules (every process does). */
  register(definitions: readonly AnyJobDefinition[]): Promise<void>;
  /** Starts working the registered jobs this process takes: all, only light ones, or none. */
  work(selection: JobSelection): Promise<void>;
  /**
   * For a task whose job waits: how many jobs of its queue are running or will be handed out
   * before it (the queue's real order, fair or not). Undefined when its job is not waiting.
   */
  queuedAhead(taskId: string): Promise<number | undefined>;
  /** Of these task ids, those whose job is still waiting, retrying or running. */
  tasksWithLiveJobs(taskIds: readonly string[]): Promise<Set<string>>;
  /** Retries now the jobs of workers found dead (PostgreSQL; see job-liveness.ts). Returns how many. */
  retryJobsOfDeadWorkers(): Promise<number>;
  /** The scheduled jobs and when each next runs (UTC). */
  schedules(): { name: string; cron: string; next: Date }[];
  /**
   * Sends this minute's run of a scheduled job now, as its schedule does at its time: once in
   * a minute, however many processes ask. Returns the job's id, or null when it was sent already.
   */
  runSchedule(name: string): Promise<string | null>;
  /** Resolves once every attempt this process has begun is over (its task updated): nothing it runs changes anything after. */
  idle(): Promise<void>;
  check(): Promise<void>;
  stop(): Promise<void>;
  /** The queues' counts and jobs, and retrying or cancelling one job (the admin page). */
  readonly admin: JobQueueAdmin;
}

/** How often pg-boss fails attempts past their expiry (once across all processes). */
const MAINTENANCE_INTERVAL_SECONDS = 30;
/**
 * How often an idle worker looks for work on its own. Workers are woken when there is some: a
 * job sent by this process, or by another one (PostgreSQL NOTIFY on `JOB_WAKE_CHANNEL`), the
 * end of their last job, a retry coming due, a job handed back. The poll is the safety net for
 * what no wake-up covers (a notification lost while a connection was down, an expired attempt
 * pg-boss's maintenance retries), so an idle Encore is not querying a dozen queues every second.
 */
export const IDLE_POLL_SECONDS = 15;
/** The idle poll of the workers started from now on: a test lengthens it to show that wake-ups alone found the work. */
export const workerPoll = { idleSeconds: IDLE_POLL_SECONDS };
/** The PostgreSQL channel a job's sender notifies with the job's queue name. */
export const JOB_WAKE_CHANNEL = 'encore_jobs';
/** How often every process looks for workers that died (PostgreSQL; see job-liveness.ts). */
export const DEAD_WORKER_SWEEP_MS = 10_000;

export async function startJobs(database: Database, logger: Logger, tasks: TaskStore): Promise<Jobs> {
  // Schedules are kept by job-schedules.ts, not by pg-boss's cron (see there).
  const common = { schedule: false, maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS };
  /**
   * Set once stop() has given running attempts their time: an attempt that outlives it (its
   * database closes under it) ends without pg-boss touching the closed database, which would
   * throw out of its worker loop and end the process. Its queries then never settle (an empty
   * answer is no better: pg-boss reads a count from the first row of a fail or complete and
   * throws on none); a pending promise does not keep the process alive. The job stays active
   * and is retried at the next start (recoverInterruptedJobs).
   */
  let stopped = false;
  const boss = new PgBoss(
    database.connectionString
      ? { connectionString: database.connectionString, max: 4, ...common }
      : // PGlite is one connection in this process, so pg-boss shares it through the executor.
        {
          db: { executeSql: (text, values) => (stopped ? new Promise<never>(() => {}) : database.executor.executeSql(text, values)) },
          ...common,
        },
  );
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  /** This process's pg-boss workers, by queue: woken when their queue has work. */
  const workersOf = new Map<string, string[]>();
  const wakeHere = (queue: string | undefined) => {
    for (const [name, ids] of workersOf) if (queue === undefined || name === queue) for (const id of ids) boss.notifyWorker(id);
  };
  /** Wakes the workers of a queue that has new work, here and (PostgreSQL) in every process. */
  const wake = async (queue: string) => {
    wakeHere(queue);
    if (database.driver !== 'postgres') return;
    await boss
      .getDb()
      .executeSql('SELECT pg_notify($1, $2)', [JOB_WAKE_CHANNEL, queue])
      .catch((error: unknown) => logger.warn({ err: error, queue }, 'could not notify the workers of a new job; they find it at their next poll'));
  };
  const retryWakers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      retryWakers.delete(timer);
      run();
    }, ms);
    timer.unref();
    retryWakers.add(timer);
  };
  /** Wakes this process's workers of the queue when the retry of a failed attempt comes due. */
  const wakeWhenRetryIsDue = (queue: string, failed: readonly { id: string; retryCount: number }[], attempt = 0): void =>
    later(Math.min(1000, 100 * 2 ** attempt), () => {
      boss
        .getDb()
        .executeSql(
          `SELECT max(CASE WHEN state = 'active' THEN 1 ELSE 0 END) AS pending,
                  greatest(0, extract(epoch FROM min(start_after) FILTER (WHERE state = 'retry') - now()) * 1000)::float8 AS wait
             FROM pgboss.job j JOIN unnest($2::uuid[], $3::int[]) AS a(id, retry_count) ON a.id = j.id
            WHERE j.name = $1 AND (j.state = 'retry' OR (j.state = 'active' AND j.retry_count = a.retry_count))`,
          [queue, failed.map((entry) => entry.id), failed.map((entry) => entry.retryCount)],
        )
        .then(({ rows }) => {
          const { pending, wait } = (rows[0] ?? {}) as { pending: number | null; wait: number | null };
          // pg-boss records the failure after the handler threw, later on a busy machine: look
          // again until the failed attempt (not a later one another worker began) is recorded.
          if (pending === 1) wakeWhenRetryIsDue(queue, failed, attempt + 1);
          else if (wait !== null) later(wait + 50, () => wakeHere(queue));
        })
        .catch(() => undefined); // the idle poll finds it
    });
  /** The attempts this process is running, so `idle()` can wait for them. */
  const running = new Set<Promise<void>>();

  await recoverInterruptedJobs(boss, database, logger);
  const liveness = createJobLiveness(database, logger, { channel: JOB_WAKE_CHANNEL, wake: wakeHere });
  const retryJobsOfDeadWorkers = async () => {
    const handedBack = await liveness.sweep((claimed) => retryNow(boss, claimed));
    for (const queue of new Set(handedBack.map((job) => job.queue))) await wake(queue);
    if (handedBack.length > 0) logger.info({ count: handedBack.length }, 'retrying the jobs of a worker process that died');
    return handedBack.length;
  };
  const sweep = () => retryJobsOfDeadWorkers().catch((error: unknown) => logger.warn({ err: error }, 'could not look for dead workers'));
  let sweeping = sweep();
  const sweeper = database.driver === 'postgres' ? setInterval(() => (sweeping = sweep()), DEAD_WORKER_SWEEP_MS).unref() : undefined;
  const registered = new Map<string, AnyJobDefinition>();
  let schedules: Schedules | undefined;
  const sendNow = async (name: string, data: object, options: PgBoss.SendOptions) => {
    const id = await boss.send(name, data, options);
    if (id !== null) await wake(name);
    return id;
  };
  /** A scheduled run: the singleton of its minute (by the database's clock) is sent once. */
  const sendScheduled = (job: AnyJobDefinition) =>
    sendNow(job.name, (job.schedule?.payload ?? {}) as object, { singletonKey: 'schedule', singletonSeconds: 60 });

  return {
    admin: jobQueueAdmin({ executeSql: (text, values = []) => boss.getDb().executeSql(text, values), tasks, names: () => [...registered.keys()], wake }),
    async send(kind, payload, options = {}) {
      // Every process registers every declared job, whether it works it or not.
      if (!registered.has(kind.name)) throw new Error(`Job ${kind.name} is not declared`);
      const parsed = kind.payload.safeParse(payload);
      if (!parsed.success) throw new Error(`The payload of job ${kind.name} does not match its schema: ${parsed.error.message}`);
      const fairOwner = registered.get(kind.name)?.fair ? options.owner : undefined;
      const data = {
        ...(parsed.data as object),
        ...(options.taskId ? { _task: options.taskId } : {}),
        ...(fairOwner !== undefined ? { [FAIR_OWNER_FIELD]: fairOwner } : {}),
      };
      const priority = fairOwner !== undefined ? await fairPriority(boss.getDb(), kind.name, fairOwner) : undefined;
      return sendNow(kind.name, data, {
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.singletonKey && options.singletonSeconds ? { singletonSeconds: options.singletonSeconds } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        ...(priority !== undefined ? { priority } : {}),
      });
    },
    async register(definitions) {
      // What the database already holds, read once: a restart with the same declarations
      // writes nothing (two queries, not three per job).
      const [queues, pgBossSchedules] = await Promise.all([boss.getQueues(), boss.getSchedules()]);
      const queueOf = new Map(queues.map((queue) => [queue.name, queue]));
      for (const job of definitions) {
        if (registered.has(job.name)) throw new Error(`Job ${job.name} is declared twice`);
        cronOf(job); // a schedule that is not a cron expression stops the start, naming its job
      }
      for (const job of definitions) {
        registered.set(job.name, job);
        const policy: PgBoss.QueuePolicy = job.catchUp ? 'stately' : 'standard';
        const options = {
          name: job.name,
          retryLimit: job.retry.limit,
          retryDelay: job.retry.delaySeconds,
          retryBackoff: job.retry.backoff,
          expireInSeconds: job.expireInSeconds,
          policy,
        };
        const existing = queueOf.get(job.name);
        if (!existing) await boss.createQueue(job.name, options);
        // createQueue leaves an existing queue as it was: bring its settings up to date.
        else if (!sameQueueSettings(existing, options)) await boss.updateQueue(job.name, options);
      }
      // Schedules an earlier Encore left to pg-boss's cron, which no process runs any more.
      for (const schedule of pgBossSchedules) await boss.unschedule(schedule.name);
      // Every process keeps every schedule, whatever WORKER says; each run is sent once, and
      // whoever works the queue runs it.
      schedules?.stop();
      schedules = keepSchedules([...registered.values()], sendScheduled, logger);
    },
    async work(selection) {
      if (selection === 'none') return;
      await liveness.register();
      for (const job of registered.values()) {
        if (selection === 'light' && job.weight !== 'light') continue;
        // pg-boss 10 has no per-process concurrency setting: each worker takes one job at a
        // time, so `concurrency` workers run at most that many at once.
        for (let i = 0; i < job.concurrency; i++) {
          const worker: { id?: string } = {};
          worker.id = await boss.work(job.name, { pollingIntervalSeconds: workerPoll.idleSeconds, batchSize: 1, includeMetadata: true }, async (batch) => {
            try {
              for (const entry of batch) {
                const attempt = runJob(job, entry, { boss, tasks, logger, liveness });
                const settled = attempt.then(
                  () => undefined,
                  () => undefined,
                );
                running.add(settled);
                void settled.then(() => running.delete(settled));
                await attempt;
              }
            } catch (error) {
              wakeWhenRetryIsDue(job.name, batch);
              throw error;
            } finally {
              // A worker that found a job looks for the next one at once, not after its poll
              // interval (deferred: pg-boss hands out jobs before work() has answered the id).
              setImmediate(() => worker.id !== undefined && boss.notifyWorker(worker.id));
            }
          });
          workersOf.set(job.name, [...(workersOf.get(job.name) ?? []), worker.id]);
        }
      }
    },
    async queuedAhead(taskId) {
      return jobsAheadOfTask(boss.getDb(), taskId);
    },
    async tasksWithLiveJobs(taskIds) {
      if (taskIds.length === 0) return new Set();
      const { rows } = await boss
        .getDb()
        .executeSql(
          `SELECT DISTINCT data->>'_task' AS task FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND data->>'_task' = ANY($1::text[])`,
          [[...taskIds]],
        );
      return new Set((rows as { task: string }[]).map((row) => row.task));
    },
    retryJobsOfDeadWorkers,
    schedules() {
      return schedules?.list() ?? [];
    },
    async runSchedule(name) {
      const job = registered.get(name);
      if (!job?.schedule) throw new Error(`Job ${name} has no schedule`);
      return sendScheduled(job);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
    async check() {
      await boss.getDb().executeSql('SELECT 1 FROM pgboss.version', []);
    },
    async stop() {
      schedules?.stop();
      for (const timer of retryWakers) clearTimeout(timer);
      clearInterval(sweeper);
      await sweeping;
      await boss.stop({ graceful: true, timeout: 10_000 });
      stopped = true;
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
  const jobs = rows as ClaimedJob[];
  await retryNow(boss, jobs);
  if (jobs.length > 0) logger.info({ count: jobs.length }, 'retrying jobs an interrupted run left active');
}

/** Fails these active jobs as attempts whose process died, and retries them at once. */
async function retryNow(boss: PgBoss, jobs: readonly ClaimedJob[]): Promise<void> {
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

type QueueSettings = Pick<PgBoss.Queue, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds' | 'policy'>;

function sameQueueSettings(stored: QueueSettings, wanted: QueueSettings): boolean {
  return (
    stored.retryLimit === wanted.retryLimit &&
    stored.retryDelay === wanted.retryDelay &&
    Boolean(stored.retryBackoff) === Boolean(wanted.retryBackoff) &&
    stored.expireInSeconds === wanted.expireInSeconds &&
    (stored.policy ?? 'standard') === (wanted.policy ?? 'standard')
  );
}
