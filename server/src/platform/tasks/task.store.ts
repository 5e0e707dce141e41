import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { tasks } from './tasks.schema.js';

export type TaskRecord = typeof tasks.$inferSelect;
export type TaskState = TaskRecord['state'];

/** The NOTIFY channel of task changes: payload `{"id":…,"ownerId":…}`. */
export const TASK_CHANNEL = 'encore_tasks';

const LIVE: TaskState[] = ['queued', 'running'];
/** The first key of the advisory locks that keep a per-owner limit of live tasks (the second: the kind and owner). */
const TASK_LIMIT_LOCK = 7_243_112;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tasks table: every change is announced on TASK_CHANNEL so every process can follow it. */
export class TaskStore {
  constructor(private readonly db: Db) {}

  async create(input: { kind: string; ownerId: number; subjectType?: string; subjectId?: string }): Promise<TaskRecord> {
    const [row] = await this.db
      .insert(tasks)
      .values({ kind: input.kind, ownerId: input.ownerId, subjectType: input.subjectType ?? null, subjectId: input.subjectId ?? null })
      .returning();
    if (!row) throw new Error('the task row was not created');
    return this.announced(row);
  }

  /**
   * Creates the task unless its owner already has `max` live (queued or running) tasks of its
   * kind; undefined then. The count and the insert run under a transaction-scoped advisory lock
   * of the (kind, owner) pair, so requests at once, from any number of processes, never pass the
   * limit together, and nobody else waits.
   */
  async createWithin(input: { kind: string; ownerId: number; subjectType?: string; subjectId?: string }, max: number): Promise<TaskRecord | undefined> {
    const row = await this.db.transaction(async (transaction) => {
      const tx: Db = transaction;
      await tx.execute(sql`select pg_advisory_xact_lock(${TASK_LIMIT_LOCK}, hashtext(${`${input.kind}:${input.ownerId}`}))`);
      const [live] = await tx
        .select({ count: count() })
        .from(tasks)
        .where(and(eq(tasks.ownerId, input.ownerId), eq(tasks.kind, input.kind), inArray(tasks.state, LIVE)));
      if ((live?.count ?? 0) >= max) return undefined;
      const [created] = await tx
        .insert(tasks)
        .values({ kind: input.kind, ownerId: input.ownerId, subjectType: input.subjectType ?? null, subjectId: input.subjectId ?? null })
        .returning();
      return created;
    });
    return this.announced(row);
  }

  /** How many live (queued or running) tasks of this kind the owner has. */
  async liveCount(kind: string, ownerId: number): Promise<number> {
    const [row] = await this.db
      .select({ count: count() })
      .from(tasks)
      .where(and(eq(tasks.ownerId, ownerId), eq(tasks.kind, kind), inArray(tasks.state, LIVE)));
    return row?.count ?? 0;
  }

  /** Undefined for no such task, and for an id that is not a task id at all. */
  async get(id: string): Promise<TaskRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db.select().from(tasks).where(eq(tasks.id, id));
    return row;
  }

  async stateOf(id: string): Promise<TaskState | undefined> {
    const [row] = await this.db.select({ state: tasks.state }).from(tasks).where(eq(tasks.id, id));
    return row?.state;
  }

  /**
   * Live tasks of the same kind (anyone's) asked for before this one: the queue in front of it,
   * which jobs take oldest first. Compared in the database: its timestamps are finer than a
   * JavaScript Date.
   */
  async liveAhead(id: string): Promise<number> {
    const [row] = await this.db
      .select({ ahead: count() })
      .from(tasks)
      .where(
        and(
          inArray(tasks.state, LIVE),
          sql`(${tasks.kind}, ${tasks.createdAt}, ${tasks.id}) < (select mine.kind, mine.created_at, mine.id from ${tasks} as mine where mine.id = ${id})`,
          sql`${tasks.kind} = (select mine.kind from ${tasks} as mine where mine.id = ${id})`,
        ),
      );
    return row?.ahead ?? 0;
  }

  /** Which of `ids` are tasks that were cancelled or failed (ids that are not task ids are none). */
  async endedUnfinished(ids: readonly string[]): Promise<Set<string>> {
    const valid = [...new Set(ids.filter((id) => UUID.test(id)))];
    if (valid.length === 0) return new Set();
    const rows = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.id, valid), inArray(tasks.state, ['cancelled', 'failed'])));
    return new Set(rows.map((row) => row.id));
  }

  /** Live (queued or running) tasks created before `before`: candidates for the abandoned-task sweep. */
  async liveCreatedBefore(before: Date): Promise<string[]> {
    const rows = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(inArray(tasks.state, LIVE), sql`${tasks.createdAt} < ${before.toISOString()}`));
    return rows.map((row) => row.id);
  }

  /** Marks the task running; undefined when it is no longer live (cancelled meanwhile). */
  async markRunning(id: string): Promise<TaskRecord | undefined> {
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'running', startedAt: sql`coalesce(${tasks.startedAt}, now())`, updatedAt: sql`now()` })
      .where(and(eq(tasks.id, id), inArray(tasks.state, LIVE)))
      .returning();
    return this.announced(row);
  }

  async setProgress(id: string, progress: number, phase: string | undefined): Promise<void> {
    const [row] = await this.db
      .update(tasks)
      .set({ progress: Math.round(Math.min(100, Math.max(0, progress))), ...(phase !== undefined ? { phase } : {}), updatedAt: sql`now()` })
      .where(and(eq(tasks.id, id), eq(tasks.state, 'running')))
      .returning();
    await this.announced(row);
  }

  async complete(id: string, result: unknown): Promise<void> {
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'done', progress: 100, result: result ?? null, updatedAt: sql`now()`, finishedAt: sql`now()` })
      .where(and(eq(tasks.id, id), inArray(tasks.state, LIVE)))
      .returning();
    await this.announced(row);
  }

  /** `message` is shown to the task's owner. */
  async fail(id: string, message: string): Promise<void> {
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'failed', error: message, updatedAt: sql`now()`, finishedAt: sql`now()` })
      .where(and(eq(tasks.id, id), inArray(tasks.state, LIVE)))
      .returning();
    await this.announced(row);
  }

  /** Cancels a live task of this owner; returns the task as it now is (undefined: not this owner's). */
  async cancel(id: string, ownerId: number): Promise<TaskRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'cancelled', updatedAt: sql`now()`, finishedAt: sql`now()` })
      .where(and(eq(tasks.id, id), eq(tasks.ownerId, ownerId), inArray(tasks.state, LIVE)))
      .returning();
    if (row) return this.announced(row);
    const current = await this.get(id);
    return current?.ownerId === ownerId ? current : undefined;
  }

  /** Cancels a live task whoever owns it (an admin cancelling its job); undefined when it was not live. */
  async cancelAny(id: string): Promise<TaskRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'cancelled', updatedAt: sql`now()`, finishedAt: sql`now()` })
      .where(and(eq(tasks.id, id), inArray(tasks.state, LIVE)))
      .returning();
    return this.announced(row);
  }

  /** Makes a failed or cancelled task queued again (an admin retrying its job); undefined when it was neither. */
  async reopen(id: string): Promise<TaskRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db
      .update(tasks)
      .set({ state: 'queued', error: null, progress: 0, finishedAt: null, updatedAt: sql`now()` })
      .where(and(eq(tasks.id, id), inArray(tasks.state, ['failed', 'cancelled'])))
      .returning();
    return this.announced(row);
  }

  private async announced<T extends TaskRecord | undefined>(row: T): Promise<T> {
    if (row) await this.db.execute(sql`select pg_notify(${TASK_CHANNEL}, ${JSON.stringify({ id: row.id, ownerId: row.ownerId })})`);
    return row;
  }
}
