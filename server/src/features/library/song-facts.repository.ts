import { and, asc, count, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { parseId } from '@encore/common/input.rules';
import type { Db } from '../../platform/db/database.js';
import type { SongFacts, SongFactsSource, SongLookup, SongLookupMatch, SongTags } from './library.port.js';
import { songs } from './library.schema.js';

const isId = (id: number) => parseId(id) !== undefined;
/** Every song but those of a music folder whose file went missing. */
const present = isNull(songs.missingSince);

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
      .where(and(sql`${songs.id} = any(${`{${wanted.join(',')}}`}::int[])`, present));
  }

  async idsAfter(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: songs.id })
      .from(songs)
      .where(and(gt(songs.id, afterId), present))
      .orderBy(asc(songs.id))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(songs).where(present);
    return row?.n ?? 0;
  }

  async lookUp(query: SongLookup): Promise<SongLookupMatch[]> {
    // Each kind's values are one JSON parameter, joined to songs by the kind's key; the index is
    // the value's place in its list. Kinds with no values are left out of the union.
    const parts: SQL[] = [];
    const each = (values: readonly unknown[]) => sql`jsonb_array_elements(${JSON.stringify(values)}::jsonb) with ordinality as q(value, ord)`;
    const columns = (kind: SongLookupMatch['kind']) =>
      sql`select ${kind}::text as kind, (q.ord - 1)::int as index, ${songs.id} as song_id, ${songs.durationSeconds} as duration_seconds`;
    const ids = query.ids.filter(isId);
    if (ids.length > 0) parts.push(sql`${columns('id')} from ${each(ids)} join ${songs} on ${songs.id} = (q.value #>> '{}')::int`);
    if (query.storageKeys.length > 0) {
      parts.push(sql`${columns('storageKey')} from ${each(query.storageKeys)} join ${songs} on ${songs.storageKey} = q.value #>> '{}'`);
    }
    if (query.fileNames.length > 0) {
      parts.push(sql`${columns('fileName')} from ${each(query.fileNames)} join ${songs} on lower(${songs.fileName}) = lower(q.value #>> '{}')`);
    }
    if (query.artistTitles.length > 0) {
      parts.push(
        sql`${columns('artistTitle')} from ${each(query.artistTitles)} join ${songs}
          on encore_fold(${songs.artist}) = encore_fold(q.value ->> 'artist') and encore_fold(${songs.title}) = encore_fold(q.value ->> 'title')`,
      );
    }
    if (parts.length === 0) return [];
    // A song of a music folder whose file is missing names nothing until it returns.
    const union = sql`select m.* from (${sql.join(parts, sql` union all `)}) m join ${songs} on ${songs.id} = m.song_id where ${songs.missingSince} is null`;
    const result = (await this.db.execute(union)) as unknown as { rows: LookupRow[] };
    return result.rows.map((row) => ({
      kind: row.kind,
      index: Number(row.index),
      songId: Number(row.song_id),
      durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    }));
  }
}

interface LookupRow {
  kind: SongLookupMatch['kind'];
  index: number | string;
  song_id: number | string;
  duration_seconds: number | string | null;
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
