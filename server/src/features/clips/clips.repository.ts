import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { clips } from './clips.schema.js';

export type ClipRow = typeof clips.$inferSelect;
export type NewClip = Omit<typeof clips.$inferInsert, 'id' | 'createdAt'>;

/** The only code of the clips feature that touches the database. Reads for users are owner-scoped. */
export class ClipsRepository {
  constructor(private readonly db: Db) {}

  async create(values: NewClip): Promise<ClipRow> {
    const [row] = await this.db.insert(clips).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async setTask(id: number, taskId: string): Promise<void> {
    await this.db.update(clips).set({ taskId }).where(eq(clips.id, id));
  }

  /** For the render job: the clip whatever its owner. */
  async byId(id: number): Promise<ClipRow | undefined> {
    const [row] = await this.db.select().from(clips).where(eq(clips.id, id));
    return row;
  }

  async find(id: number, ownerId: number): Promise<ClipRow | undefined> {
    const [row] = await this.db
      .select()
      .from(clips)
      .where(and(eq(clips.id, id), eq(clips.ownerId, ownerId)));
    return row;
  }

  async findByTask(taskId: string, ownerId: number): Promise<ClipRow | undefined> {
    const [row] = await this.db
      .select()
      .from(clips)
      .where(and(eq(clips.taskId, taskId), eq(clips.ownerId, ownerId)));
    return row;
  }

  listByOwner(ownerId: number, limit = 200): Promise<ClipRow[]> {
    return this.db.select().from(clips).where(eq(clips.ownerId, ownerId)).orderBy(desc(clips.createdAt), desc(clips.id)).limit(limit);
  }

  async finish(id: number, values: { videoKey: string; sizeBytes: number; durationSeconds: number }): Promise<void> {
    await this.db
      .update(clips)
      .set({ ...values, finishedAt: new Date() })
      .where(eq(clips.id, id));
  }

  async delete(id: number, ownerId: number): Promise<ClipRow | undefined> {
    const [row] = await this.db
      .delete(clips)
      .where(and(eq(clips.id, id), eq(clips.ownerId, ownerId)))
      .returning();
    return row;
  }

  /** The clips whose video or media is among these storage keys, with their render's task. */
  async usingKeys(keys: string[]): Promise<{ videoKey: string | null; mediaKeys: string[]; taskId: string | null }[]> {
    if (keys.length === 0) return [];
    const asArray = sql`array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]`;
    return this.db
      .select({ videoKey: clips.videoKey, mediaKeys: clips.mediaKeys, taskId: clips.taskId })
      .from(clips)
      .where(or(inArray(clips.videoKey, keys), sql`${clips.mediaKeys} ?| ${asArray}`));
  }
}
