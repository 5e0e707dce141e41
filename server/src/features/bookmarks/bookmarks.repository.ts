import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { BookmarkRecord } from './bookmarks.port.js';
import { bookmarks } from './bookmarks.schema.js';

const columns = {
  songId: bookmarks.songId,
  positionMs: bookmarks.positionMs,
  comment: bookmarks.comment,
  createdAt: bookmarks.createdAt,
  changedAt: bookmarks.changedAt,
};

/** The only code of the bookmarks feature that touches the database. */
export class BookmarksRepository {
  constructor(private readonly db: Db) {}

  list(userId: number): Promise<BookmarkRecord[]> {
    return this.db.select(columns).from(bookmarks).where(eq(bookmarks.userId, userId)).orderBy(desc(bookmarks.changedAt), desc(bookmarks.songId));
  }

  async get(userId: number, songId: number): Promise<BookmarkRecord | undefined> {
    const [row] = await this.db
      .select(columns)
      .from(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.songId, songId)));
    return row;
  }

  /** One statement: a second save of the same song replaces the first, keeping when it was created. */
  async save(userId: number, songId: number, positionMs: number, comment: string | null, at: Date): Promise<BookmarkRecord> {
    const [row] = await this.db
      .insert(bookmarks)
      .values({ userId, songId, positionMs, comment, createdAt: at, changedAt: at })
      .onConflictDoUpdate({ target: [bookmarks.userId, bookmarks.songId], set: { positionMs, comment, changedAt: at } })
      .returning(columns);
    if (!row) throw new Error('the bookmark was not written');
    return row;
  }

  async remove(userId: number, songId: number): Promise<boolean> {
    const rows = await this.db
      .delete(bookmarks)
      .where(and(eq(bookmarks.userId, userId), eq(bookmarks.songId, songId)))
      .returning({ songId: bookmarks.songId });
    return rows.length > 0;
  }
}
