import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { describeSong } from './ingest/ingest.phases.js';
import type { FolderSongs, FolderSongValues } from './library.port.js';
import type { NewSong } from './library.repository.js';
import { songs } from './library.schema.js';

const BATCH = 1000;

/** The row of a music folder's song: no uploader, the file's own name, its music folder's number. */
function rowOf(values: FolderSongValues): NewSong {
  const { coverKey, coverThumbKey } = values;
  return describeSong(
    { ownerId: null, fileName: values.fileName, storageKey: values.storageKey, size: values.size, folderId: values.folderId },
    { mimeType: values.fileType },
    values.tags,
    coverKey === null || coverThumbKey === null ? null : { coverKey, coverThumbKey },
  );
}

/** The library's writes of music folders' songs (the music-folders module reaches them through the folder-songs port). */
export class FolderSongsRepository implements Omit<FolderSongs, 'add' | 'announce'> {
  constructor(private readonly db: Db) {}

  /** Inserts, a thousand a statement; the ids in the order given. */
  async insert(values: readonly FolderSongValues[]): Promise<number[]> {
    const ids: number[] = [];
    for (let start = 0; start < values.length; start += BATCH) {
      const batch = values.slice(start, start + BATCH).map(rowOf);
      const rows = await this.db.insert(songs).values(batch).returning({ id: songs.id, storageKey: songs.storageKey });
      const byKey = new Map(rows.map((row) => [row.storageKey, row.id]));
      for (const row of batch) ids.push(byKey.get(row.storageKey) as number);
    }
    return ids;
  }

  async update(songId: number, values: FolderSongValues): Promise<void> {
    const { ownerId: _owner, storageKey: _key, folderId: _folder, ...changed } = rowOf(values);
    await this.db
      .update(songs)
      .set(changed)
      .where(sql`${songs.id} = ${songId} and ${songs.ownerId} is null`);
  }

  async setMissing(songIds: readonly number[], since: Date | null): Promise<void> {
    for (let start = 0; start < songIds.length; start += BATCH) {
      const ids = songIds.slice(start, start + BATCH);
      await this.db
        .update(songs)
        .set({ missingSince: since })
        .where(and(inArray(songs.id, [...ids]), isNull(songs.ownerId)));
    }
  }

  async remove(songIds: readonly number[]): Promise<void> {
    for (let start = 0; start < songIds.length; start += BATCH) {
      const ids = songIds.slice(start, start + BATCH);
      await this.db.delete(songs).where(and(inArray(songs.id, [...ids]), isNull(songs.ownerId)));
    }
  }
}
