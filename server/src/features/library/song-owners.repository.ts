import { count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { songs } from './library.schema.js';
import type { SongOwners, UploadUsage } from './song-owners.port.js';

/** The songs table as its uploaders hold it (the admin page, deleting an account). */
export class SongOwnersRepository implements SongOwners {
  constructor(private readonly db: Db) {}

  async usage(): Promise<Map<number, UploadUsage>> {
    const rows = await this.db
      .select({ ownerId: songs.ownerId, songs: count(), bytes: sql<string>`coalesce(sum(${songs.size}), 0)` })
      .from(songs)
      .where(isNotNull(songs.ownerId))
      .groupBy(songs.ownerId);
    return new Map(rows.flatMap((row) => (row.ownerId === null ? [] : [[row.ownerId, { songs: row.songs, bytes: Number(row.bytes) }]])));
  }

  async release(ownerId: number): Promise<number> {
    const rows = await this.db.update(songs).set({ ownerId: null }).where(eq(songs.ownerId, ownerId)).returning({ id: songs.id });
    return rows.length;
  }

  async removeAll(ownerId: number): Promise<number> {
    const rows = await this.db.delete(songs).where(eq(songs.ownerId, ownerId)).returning({ id: songs.id });
    return rows.length;
  }
}
