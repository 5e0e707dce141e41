import type { z } from 'zod';

/** Light jobs (mail, look-ups) run on serving processes; heavy ones (media work) may be left to workers. */
export type JobWeight = 'light' | 'heavy';

/** Which jobs a process works: every one, only light ones, or none (it only sends). */
export type JobSelection = 'all' | 'light' | 'none';

/** A job's name and payload schema: all a sender needs, so services can send before handlers exist. */
export interface JobKind<P> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
}

/** What a running handler may use. `task` is set when the job was started for a user-visible task. */
export interface JobContext {
  jobId: string;
  /** Aborted when the task is cancelled (from any process); handlers stop their work on it. */
  signal: AbortSignal;
  /** Reports progress (0-100) and a short phase label to the task; a no-op for jobs without a task. */
  progress(percent: number, phase?: string): Promise<void>;
  task: { id: string; ownerId: number } | undefined;
}

/**
 * A background job as a feature declares it, in its `<feature>.jobs.ts`. Handlers must be
 * idempotent: a job may run again after a crash or a retry. What the handler returns becomes
 * the task's result (JSON).
 */
export interface JobDefinition<P> extends JobKind<P> {
  handler(payload: P, context: JobContext): Promise<unknown>;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /**
   * How long one attempt may run: past it the job counts as dead (its process crashed) and is
   * retried. Keep it above the work's own time limits (seconds for mail, hours for a render).
   */
  expireInSeconds: number;
  /** At most this many of these jobs run at once in one process. */
  concurrency: number;
  weight: JobWeight;
  /**
   * Takes the jobs' owners in turn (the task's owner; see fair-queue.ts) rather than oldest
   * first: for work users queue a lot of (renders, transcriptions).
   */
  fair?: boolean;
  /** A cron schedule (UTC) and the payload each run gets; scheduled by every process. */
  schedule?: { cron: string; payload: P };
  /**
   * A catch-up job goes through whatever is left to do (a backfill): at most one waits
   * and one runs per singleton key, whatever the number of processes: sending it while one is
   * waiting adds nothing (the waiting one will find the new work). pg-boss's `stately` queue.
   */
  catchUp?: boolean;
}

/** Any definition, whatever its payload (the list a process registers). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of definitions of differing payloads; each is checked where it is written
export type AnyJobDefinition = JobDefinition<any>;

export function jobKind<P>(name: string, payload: z.ZodType<P>): JobKind<P> {
  return { name, payload };
}

/** Declares a job: a kind plus its handler and policy. */
export function defineJob<P>(kind: JobKind<P>, rest: Omit<JobDefinition<P>, 'name' | 'payload'>): JobDefinition<P> {
  return { ...kind, ...rest };
}

/**
 * A failure whose message is safe to show the task's owner; other errors show a generic one.
 * `retry: false` marks one that a retry would only repeat (a setting missing, a key refused, the
 * song deleted): the task fails at once with its message instead of after every retry.
 */
export class TaskFailure extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retry?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retry ?? true;
  }
}
