import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { songs } from './library.schema.js';

/** The bytes of the songs `ownerId` uploaded (music folders' songs belong to nobody). */
export async function uploadedSongBytes(db: Db, ownerId: number): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${songs.size}), 0)` })
    .from(songs)
    .where(eq(songs.ownerId, ownerId));
  return Number(row?.bytes ?? 0);
}
