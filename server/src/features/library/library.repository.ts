import { and, desc, eq, ilike, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import { parseId } from '@encore/common/input.rules';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/pg-errors.js';
import { songLikes, songs, users } from '../../platform/db/schema.js';

export type SongRow = typeof songs.$inferSelect;
export type NewSong = typeof songs.$inferInsert;

/** A song as one viewer sees it. */
export interface SongRecord {
  row: SongRow;
  uploadedBy: string;
  isLiked: boolean;
}

export interface SongFilter {
  /** Only this user's uploads. */
  ownerId?: number;
  /** Only the viewer's likes. */
  likedOnly?: boolean;
  /** Case-insensitive substring of display name, artist or album. */
  search?: string;
  limit?: number;
  offset?: number;
}

/**
 * Ids are PostgreSQL integers: anything larger cannot exist (and must not reach a query). Ids
 * also arrive from inside (a song page URL in a share request), so the contract's rule is kept here.
 */
const isId = (id: number) => parseId(id) !== undefined;

/** The only code of the library feature that touches the database. */
export class LibraryRepository {
  constructor(private readonly db: Db) {}

  /** Newest first; ties (one bulk import) broken by id so pages never overlap. */
  async list(viewerId: number, filter: SongFilter = {}): Promise<SongRecord[]> {
    const conditions: SQL[] = [];
    if (filter.ownerId !== undefined) conditions.push(eq(songs.ownerId, filter.ownerId));
    if (filter.likedOnly) conditions.push(isNotNull(songLikes.userId));
    const search = filter.search?.trim();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches = or(ilike(songs.displayName, pattern), ilike(songs.artist, pattern), ilike(songs.album, pattern));
      if (matches) conditions.push(matches);
    }
    let query = this.selectFor(viewerId)
      .where(and(...conditions))
      .orderBy(desc(songs.uploadedAt), desc(songs.id))
      .$dynamic();
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    if (filter.offset !== undefined) query = query.offset(filter.offset);
    return (await query).map(toRecord);
  }

  async findById(id: number, viewerId: number): Promise<SongRecord | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.selectFor(viewerId).where(eq(songs.id, id));
    return row && toRecord(row);
  }

  async findByIds(ids: number[], viewerId: number): Promise<SongRecord[]> {
    const valid = [...new Set(ids.filter(isId))];
    if (valid.length === 0) return [];
    return (await this.selectFor(viewerId).where(inArray(songs.id, valid))).map(toRecord);
  }

  async findRow(id: number): Promise<SongRow | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db.select().from(songs).where(eq(songs.id, id));
    return row;
  }

  async findByStorageKey(storageKey: string): Promise<SongRow | undefined> {
    const [row] = await this.db.select().from(songs).where(eq(songs.storageKey, storageKey));
    return row;
  }

  /**
   * One statement: a song exists completely or not at all. When the storage key is already
   * taken (a concurrent upload-complete of the same upload won), that row comes back with
   * `created: false`.
   */
  async insert(values: NewSong): Promise<{ row: SongRow; created: boolean }> {
    try {
      const [row] = await this.db.insert(songs).values(values).returning();
      if (!row) throw new Error('insert returned no row');
      return { row, created: true };
    } catch (error) {
      const existing = isUniqueViolation(error, 'songs_storage_key_key') ? await this.findByStorageKey(values.storageKey) : undefined;
      if (!existing) throw error;
      return { row: existing, created: false };
    }
  }

  /** Which of `keys` a song uses (as its audio, cover or thumbnail). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .select({ storageKey: songs.storageKey, coverKey: songs.coverKey, coverThumbKey: songs.coverThumbKey })
      .from(songs)
      .where(or(inArray(songs.storageKey, keys), inArray(songs.coverKey, keys), inArray(songs.coverThumbKey, keys)));
    const wanted = new Set(keys);
    return new Set(rows.flatMap((row) => [row.storageKey, row.coverKey, row.coverThumbKey]).filter((key): key is string => key !== null && wanted.has(key)));
  }

  /** Deletes the song if `ownerId` uploaded it; likes, share links and playlist entries cascade. */
  async deleteOwned(id: number, ownerId: number): Promise<SongRow | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db
      .delete(songs)
      .where(and(eq(songs.id, id), eq(songs.ownerId, ownerId)))
      .returning();
    return row;
  }

  /** Flips the like and returns the new state; undefined when the song does not exist (any more). */
  async toggleLike(userId: number, songId: number): Promise<boolean | undefined> {
    if (!isId(songId)) return undefined;
    try {
      return await this.db.transaction(async (tx) => {
        const removed = await tx
          .delete(songLikes)
          .where(and(eq(songLikes.userId, userId), eq(songLikes.songId, songId)))
          .returning({ songId: songLikes.songId });
        if (removed.length > 0) return false;
        await tx.insert(songLikes).values({ userId, songId }).onConflictDoNothing();
        return true;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }

  private selectFor(viewerId: number) {
    return this.db
      .select({ row: songs, uploadedBy: users.userName, likedBy: songLikes.userId })
      .from(songs)
      .innerJoin(users, eq(users.id, songs.ownerId))
      .leftJoin(songLikes, and(eq(songLikes.songId, songs.id), eq(songLikes.userId, viewerId)));
  }
}

function toRecord(selected: { row: SongRow; uploadedBy: string; likedBy: number | null }): SongRecord {
  return { row: selected.row, uploadedBy: selected.uploadedBy, isLiked: selected.likedBy !== null };
}
