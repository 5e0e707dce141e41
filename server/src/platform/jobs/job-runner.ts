import type PgBoss from 'pg-boss';
import type { Logger } from '../logger.js';
import { withLogContext } from '../log-context.js';
import type { TaskStore } from '../tasks/task.store.js';
import { FAIR_OWNER_FIELD } from './fair-queue.js';
import type { JobLiveness } from './job-liveness.js';
import { TaskFailure, type AnyJobDefinition, type JobContext } from './jobs.types.js';

/** How often a running task's row is checked for a cancellation made by any process. */
export const CANCEL_POLL_MS = 500;
/** Progress is written at most this often (and at once when the phase changes). */
export const PROGRESS_WRITE_MS = 500;

const GENERIC_FAILURE = 'The task failed. Try again later.';

interface RunnerDeps {
  boss: PgBoss;
  tasks: TaskStore;
  logger: Logger;
  liveness: JobLiveness;
}

/** Runs one job: validates its payload, ties it to its task (progress, cancellation, outcome). */
export async function runJob(job: AnyJobDefinition, entry: PgBoss.JobWithMetadata<unknown>, deps: RunnerDeps): Promise<void> {
  const { boss, tasks, logger } = deps;
  const { _task: taskId, [FAIR_OWNER_FIELD]: _owner, ...raw } = (entry.data ?? {}) as { _task?: string; [FAIR_OWNER_FIELD]?: string };
  const parsed = job.payload.safeParse(raw);
  if (!parsed.success) {
    // A bad payload fails the same way every time: no retries.
    await boss.getDb().executeSql('UPDATE pgboss.job SET retry_limit = retry_count WHERE name = $1 AND id = $2', [job.name, entry.id]);
    if (taskId) await tasks.fail(taskId, GENERIC_FAILURE);
    const error = new Error(`The payload of job ${job.name} does not match its schema: ${parsed.error.message}`);
    logger.error({ job: entry.id, queue: job.name, err: error }, 'job payload is invalid; failed without retry');
    throw error;
  }

  // Claimed first: should this process die from here on, its job is retried at once.
  await deps.liveness.claim(job.name, entry.id);
  try {
    await runClaimed(job, entry, parsed.data, deps, taskId);
  } finally {
    await deps.liveness.release(entry.id);
  }
}

async function runClaimed(
  job: AnyJobDefinition,
  entry: PgBoss.JobWithMetadata<unknown>,
  payload: unknown,
  deps: RunnerDeps,
  taskId: string | undefined,
): Promise<void> {
  const { boss, tasks, logger } = deps;
  const controller = new AbortController();
  let task: JobContext['task'];
  let watcher: NodeJS.Timeout | undefined;
  const progress = taskId ? throttledProgress(tasks, taskId) : undefined;
  if (taskId) {
    const row = await tasks.markRunning(taskId);
    if (!row) return; // cancelled before it started
    task = { id: row.id, ownerId: row.ownerId };
    watcher = setInterval(() => {
      tasks.stateOf(taskId).then(
        (state) => {
          if (state !== 'running') controller.abort(new Error('The task was cancelled.'));
        },
        () => undefined,
      );
    }, CANCEL_POLL_MS);
  }
  const context: JobContext = {
    jobId: entry.id,
    signal: controller.signal,
    task,
    progress: progress ? progress.report : async () => undefined,
  };
  try {
    // Every line logged for this job, by any module, carries its id and queue.
    const result = await withLogContext({ jobId: entry.id, queue: job.name }, () => job.handler(payload, context));
    if (taskId && !controller.signal.aborted) {
      await progress?.flush();
      await tasks.complete(taskId, result ?? null);
    }
  } catch (error) {
    if (controller.signal.aborted) return; // cancelled: the job is done with
    const repeats = error instanceof TaskFailure && !error.retryable;
    const final = repeats || entry.retryCount >= entry.retryLimit;
    if (repeats) await stopRetries(boss, job.name, entry.id);
    if (taskId && final) await tasks.fail(taskId, error instanceof TaskFailure ? error.message : GENERIC_FAILURE);
    logger.warn({ err: error, job: entry.id, queue: job.name }, final ? 'job failed' : 'job failed; pg-boss will retry it');
    throw error;
  } finally {
    clearInterval(watcher);
    progress?.stop();
  }
}

/** pg-boss reads the limit when the handler throws: lowering it to the count fails the job for good. */
async function stopRetries(boss: PgBoss, name: string, id: string): Promise<void> {
  await boss.getDb().executeSql('UPDATE pgboss.job SET retry_limit = retry_count WHERE name = $1 AND id = $2', [name, id]);
}

function throttledProgress(tasks: TaskStore, taskId: string) {
  let written = { percent: -1, phase: undefined as string | undefined, at: 0 };
  let pending: { percent: number; phase: string | undefined } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const write = async () => {
    if (!pending) return;
    const next = pending;
    pending = undefined;
    written = { ...next, at: Date.now() };
    await tasks.setProgress(taskId, next.percent, next.phase);
  };
  return {
    async report(percent: number, phase?: string) {
      pending = { percent: Math.min(100, Math.max(0, percent)), phase: phase ?? pending?.phase ?? written.phase };
      const wait = written.at + PROGRESS_WRITE_MS - Date.now();
      if (pending.phase !== written.phase || wait <= 0) {
        clearTimeout(timer);
        timer = undefined;
        await write();
      } else if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          write().catch(() => undefined);
        }, wait);
      }
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      await write();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
