import type { Database } from '../db/database.js';
import { TooManyRequestsError } from '../errors/app-errors.js';
import type { Jobs } from '../jobs/jobs.js';
import type { JobKind } from '../jobs/jobs.types.js';
import type { Logger } from '../logger.js';
import { TASK_CHANNEL, type TaskRecord, type TaskStore } from './task.store.js';

/** A task this young may still be waiting for its job to be sent. */
export const ABANDONED_GRACE_MS = 60_000;
export const ABANDONED_MESSAGE = 'The work stopped before it finished (it ran out of time). Try again.';

export interface StartTask<P> {
  kind: string;
  ownerId: number;
  subject?: { type: string; id: string };
  job: JobKind<P>;
  payload: P;
  /** The most live tasks of this kind the owner may have; past it the start is refused (429). */
  limit?: TaskLimit;
}

/** A per-owner limit of live (queued or running) tasks of a kind, and the refusal past it. */
export interface TaskLimit {
  max: number;
  message: string;
  /** The Retry-After of the refusal: a guess at when one of them will have finished. */
  retryAfterSeconds: number;
}

/**
 * User-visible work: a task row plus the job that does it. Reading and cancelling are the
 * owner's only; changes from any process reach `subscribe` (LISTEN/NOTIFY).
 */
export class Tasks {
  private readonly listeners = new Map<number, Set<(task: TaskRecord) => void>>();
  private unlisten: (() => Promise<void>) | undefined;
  private listening: Promise<void> | undefined;

  constructor(private readonly deps: { store: TaskStore; jobs: Jobs; database: Database; logger: Logger }) {}

  async start<P>(input: StartTask<P>): Promise<TaskRecord> {
    // Validate first: a bad payload must not leave a task row behind.
    input.job.payload.parse(input.payload);
    const row = { kind: input.kind, ownerId: input.ownerId, subjectType: input.subject?.type, subjectId: input.subject?.id };
    const task = input.limit ? await this.deps.store.createWithin(row, input.limit.max) : await this.deps.store.create(row);
    if (!task) throw refusal(input.limit as TaskLimit);
    try {
      // Fair jobs take their owners in turn (see platform/jobs/fair-queue.ts).
      await this.deps.jobs.send(input.job, input.payload, { taskId: task.id, owner: String(input.ownerId) });
    } catch (error) {
      await this.deps.store.fail(task.id, 'The task could not be started.');
      throw error;
    }
    return task;
  }

  /**
   * Refuses (429) when the owner already has `limit.max` live tasks of this kind: a look before
   * costly work (receiving a clip's media), not a promise; `start` with the limit decides.
   */
  async assertBelowLimit(kind: string, ownerId: number, limit: TaskLimit): Promise<void> {
    if ((await this.deps.store.liveCount(kind, ownerId)) >= limit.max) throw refusal(limit);
  }

  /** The owner's task; undefined for anyone else's or none. */
  async get(id: string, ownerId: number): Promise<TaskRecord | undefined> {
    const task = await this.deps.store.get(id);
    return task?.ownerId === ownerId ? task : undefined;
  }

  /** A task whoever owns it: for work several users share (a song's transcription, joined by whoever asks next). */
  async peek(id: string): Promise<TaskRecord | undefined> {
    return this.deps.store.get(id);
  }

  /**
   * Which of `ids` (anyone's tasks) were cancelled or failed: their work will not finish, so
   * what it would have used may go.
   */
  async cancelledOrFailed(ids: readonly string[]): Promise<Set<string>> {
    return this.deps.store.endedUnfinished(ids);
  }

  /** For a queued task: how many jobs of its queue (anyone's) are running or will run before it. */
  async queuedAhead(id: string): Promise<number> {
    // The queue's own order (fair queues take owners in turn); the tasks' age when its job is not waiting yet.
    return (await this.deps.jobs.queuedAhead(id)) ?? this.deps.store.liveAhead(id);
  }

  /**
   * Fails the live tasks whose job is gone: pg-boss expired its last attempt (it ran past its
   * expiry), or it was failed or deleted outside a handler. Without this such a task would show
   * 'running' for ever. Tasks younger than `graceMs` are left alone: their job may be on its way.
   */
  async sweepAbandoned(graceMs = ABANDONED_GRACE_MS): Promise<number> {
    const candidates = await this.deps.store.liveCreatedBefore(new Date(Date.now() - graceMs));
    if (candidates.length === 0) return 0;
    const alive = await this.deps.jobs.tasksWithLiveJobs(candidates);
    const abandoned = candidates.filter((id) => !alive.has(id));
    for (const id of abandoned) await this.deps.store.fail(id, ABANDONED_MESSAGE);
    if (abandoned.length > 0) this.deps.logger.warn({ count: abandoned.length }, 'failed tasks whose job had stopped');
    return abandoned.length;
  }

  async cancel(id: string, ownerId: number): Promise<TaskRecord | undefined> {
    return this.deps.store.cancel(id, ownerId);
  }

  /** Calls `onChange` with each change of the owner's tasks, made by any process; returns the unsubscribe. */
  async subscribe(ownerId: number, onChange: (task: TaskRecord) => void): Promise<() => void> {
    await this.startListening();
    const set = this.listeners.get(ownerId) ?? new Set();
    set.add(onChange);
    this.listeners.set(ownerId, set);
    return () => {
      set.delete(onChange);
      if (set.size === 0) this.listeners.delete(ownerId);
    };
  }

  async close(): Promise<void> {
    await this.listening?.catch(() => undefined);
    await this.unlisten?.();
    this.listeners.clear();
  }

  private startListening(): Promise<void> {
    this.listening ??= this.deps.database
      .listen(TASK_CHANNEL, (payload) => this.onNotification(payload))
      .then((unlisten) => {
        this.unlisten = unlisten;
      });
    return this.listening;
  }

  private onNotification(payload: string): void {
    let note: { id: string; ownerId: number };
    try {
      note = JSON.parse(payload) as { id: string; ownerId: number };
    } catch {
      return;
    }
    const set = this.listeners.get(note.ownerId);
    if (!set || set.size === 0) return;
    this.deps.store.get(note.id).then(
      (task) => {
        if (!task || task.ownerId !== note.ownerId) return;
        for (const listener of set) listener(task);
      },
      (error: unknown) => this.deps.logger.warn({ err: error }, 'could not read a changed task'),
    );
  }
}

function refusal(limit: TaskLimit): TooManyRequestsError {
  return new TooManyRequestsError(limit.message, limit.retryAfterSeconds);
}
