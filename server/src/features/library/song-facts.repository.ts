import { asc, count, eq, gt, sql } from 'drizzle-orm';
import { parseId } from '@encore/common/input.rules';
import type { Db } from '../../platform/db/database.js';
import type { SongFacts, SongFactsSource, SongTags } from './library.port.js';
import { songs } from './library.schema.js';

const isId = (id: number) => parseId(id) !== undefined;

/** The songs as facts, without a viewer (no like, no uploader's name): what lyrics and discovery read. */
export class SongFactsRepository implements SongFactsSource {
  constructor(private readonly db: Db) {}

  async song(id: number): Promise<SongFacts | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db
      .select({ ...tagColumns(), ownerId: songs.ownerId, fileName: songs.fileName, fileType: songs.fileType, storageKey: songs.storageKey })
      .from(songs)
      .where(eq(songs.id, id));
    return row;
  }

  async songs(ids: readonly number[], options: { transcriptChars?: number } = {}): Promise<SongTags[]> {
    const wanted = ids.filter(isId);
    if (wanted.length === 0) return [];
    // One array parameter, not one per id: ranking asks for every analysed song at once.
    return this.db
      .select(tagColumns(options.transcriptChars))
      .from(songs)
      .where(sql`${songs.id} = any(${`{${wanted.join(',')}}`}::int[])`);
  }

  async idsAfter(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db.select({ id: songs.id }).from(songs).where(gt(songs.id, afterId)).orderBy(asc(songs.id)).limit(limit);
    return rows.map((row) => row.id);
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(songs);
    return row?.n ?? 0;
  }
}

function tagColumns(transcriptChars?: number) {
  return {
    id: songs.id,
    displayName: songs.displayName,
    title: songs.title,
    artist: songs.artist,
    album: songs.album,
    genre: songs.genre,
    year: songs.year,
    durationSeconds: songs.durationSeconds,
    transcript:
      transcriptChars === undefined ? songs.transcript : sql<string | null>`left(${songs.transcript}, ${sql.raw(String(Math.trunc(transcriptChars)))})`,
  };
}
