import { and, asc, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { BrowsedSong } from './library.port.js';
import { songCounts, songLikes, songs } from './library.schema.js';

/** What the browse index keeps of a present song: its tags that make artists, albums and genres. */
export interface BrowseSongRow {
  id: number;
  artist: string | null;
  albumArtist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  durationSeconds: number | null;
  uploadedAt: Date;
  hasCover: boolean;
  /** 0 for an upload, n for the n-th music folder. */
  musicFolderId: number;
  mbzAlbumId: string | null;
  mbzArtistId: string | null;
  compilation: boolean;
  albumArtistSort: string | null;
  artistSort: string | null;
  /** Each value of a multi-valued artist tag, or null. */
  artists: string[] | null;
  /** Each value of a multi-valued genre tag, or null. */
  genres: string[] | null;
  trackNumber: number | null;
  discNumber: number | null;
}

/** What a song entry of the Subsonic API shows of a song, as read for a page (its keys come from the index). */
export type PageSongRow = Omit<BrowsedSong, 'albumKey' | 'artistKey'>;

/** A row of `page` as json_build_array writes it (timestamps as ISO text). */
type PageJsonRow = [
  id: number,
  displayName: string,
  fileName: string,
  fileType: string,
  size: number,
  uploadedAt: string,
  title: string | null,
  artist: string | null,
  album: string | null,
  albumArtist: string | null,
  genre: string | null,
  year: number | null,
  trackNumber: number | null,
  discNumber: number | null,
  durationSeconds: number | null,
  bitrate: number | null,
  sampleRate: number | null,
  hasCover: boolean,
  musicBrainzId: string | null,
  musicFolderId: number,
  likedAt: string | null,
];

/** JSON writes a float that is not a number as text: such a value is no number here. */
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function toPageSongRow(row: PageJsonRow): PageSongRow {
  const [id, displayName, fileName, fileType, size, uploadedAt, title, artist, album, albumArtist, genre, year, trackNumber, discNumber, ...rest] = row;
  const [durationSeconds, bitrate, sampleRate, hasCover, musicBrainzId, musicFolderId, likedAt] = rest;
  const song: PageSongRow = {
    id,
    displayName,
    fileName,
    fileType,
    size,
    uploadedAt: new Date(uploadedAt),
    title,
    artist,
    album,
    albumArtist,
    genre,
    year,
    trackNumber,
    discNumber,
    durationSeconds: numberOrNull(durationSeconds),
    bitrate,
    sampleRate,
    hasCover,
    musicBrainzId,
    musicFolderId,
    isLiked: likedAt !== null,
  };
  if (likedAt !== null) song.likedAt = new Date(likedAt);
  return song;
}

/** The library a song is in: a music folder's songs have no uploader; an upload's folderId is the uploader's own folder, not a library. */
const musicFolderOf = sql<number>`case when ${songs.ownerId} is null then ${songs.folderId} else 0 end`.mapWith(Number);

/**
 * What changes when songs are added, deleted, hidden or shown again, read from the song counts
 * the triggers keep, the primary key and the partial index of missing songs, never the rows. A retag in place
 * (a music folder's file rewritten) changes none of it: the index is rebuilt after a while for those.
 */
export interface BrowseVersion {
  count: number;
  maxId: number;
  missingCount: number;
  missingIdSum: number;
}

export const sameVersion = (a: BrowseVersion, b: BrowseVersion) =>
  a.count === b.count && a.maxId === b.maxId && a.missingCount === b.missingCount && a.missingIdSum === b.missingIdSum;

/** Songs read per query by `rowsInPages`: a few milliseconds each on PGlite. */
const BUILD_PAGE = 2000;

/** The songs table as the ID3 browse model reads it (the library's own tables, read only). */
export class SongBrowseRepository {
  constructor(
    private readonly db: Db,
    /** Songs per query of `rowsInPages` (smaller in tests). */
    private readonly buildPage = BUILD_PAGE,
  ) {}

  /**
   * The version and the present songs with ids above `afterId` (all of them from 0), read in one
   * snapshot so that the rows are exactly what the version describes.
   */
  async snapshot(afterId: number): Promise<{ version: BrowseVersion; rows: BrowseSongRow[] }> {
    return this.db.transaction(
      async (transaction) => {
        const tx: Db = transaction;
        const version = await this.version(tx);
        return { version, rows: await this.rowsAfter(tx, afterId) };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /**
   * The present songs with ids above `afterId`, read a page at a time (BUILD_PAGE) in queries of their
   * own, so that other queries go between them (PGlite has one connection; the whole of 50,000
   * songs at once held it for a second). No snapshot: the caller makes sure nothing changed meanwhile.
   */
  async rowsInPages(afterId: number): Promise<BrowseSongRow[]> {
    const rows: BrowseSongRow[] = [];
    for (let after = afterId; ;) {
      const page = await this.rowsAfter(this.db, after, this.buildPage);
      for (const row of page) rows.push(row);
      const last = page.at(-1);
      if (page.length < this.buildPage || !last) return rows;
      after = last.id;
    }
  }

  private rowsAfter(db: Db, afterId: number, limit?: number): Promise<BrowseSongRow[]> {
    const query = db
      .select({
        id: songs.id,
        artist: songs.artist,
        albumArtist: songs.albumArtist,
        album: songs.album,
        genre: songs.genre,
        year: songs.year,
        durationSeconds: songs.durationSeconds,
        uploadedAt: songs.uploadedAt,
        hasCover: sql<boolean>`${songs.coverKey} is not null`,
        musicFolderId: musicFolderOf,
        mbzAlbumId: songs.mbzAlbumId,
        mbzArtistId: songs.mbzArtistId,
        compilation: songs.compilation,
        albumArtistSort: songs.albumArtistSort,
        artistSort: songs.artistSort,
        artists: songs.artists,
        genres: songs.genres,
        trackNumber: songs.trackNumber,
        discNumber: songs.discNumber,
      })
      .from(songs)
      .where(and(gt(songs.id, afterId), isNull(songs.missingSince)))
      .orderBy(asc(songs.id));
    return limit === undefined ? query : query.limit(limit);
  }

  async version(db: Db = this.db): Promise<BrowseVersion> {
    const missing = db.select({ id: songs.id }).from(songs).where(isNotNull(songs.missingSince)).as('missing');
    const [row] = await db
      .select({
        // The triggers' count (exactly count(*) in this snapshot), not a count of every song.
        count: sql<number>`(select coalesce(sum(${songCounts.songs}), 0) from ${songCounts})`.mapWith(Number),
        maxId: sql<number>`(select coalesce(max(${songs.id}), 0) from ${songs})`.mapWith(Number),
        missingCount: sql<number>`count(${missing.id})`.mapWith(Number),
        missingIdSum: sql<number>`coalesce(sum(${missing.id}), 0)`.mapWith(Number),
      })
      .from(missing);
    return row ?? { count: 0, maxId: 0, missingCount: 0, missingIdSum: 0 };
  }

  /**
   * The present songs among `ids` with the viewer's likes, in one query of the columns a song
   * entry shows (no lyrics, no storage keys), in no particular order. The ids go as one array,
   * and the rows come back as one JSON array of arrays: PGlite hands over 500 rows of 20 columns
   * value by value about three times slower than one text it parses at once.
   */
  async page(ids: readonly number[], viewerId: number): Promise<PageSongRow[]> {
    const valid = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647);
    if (valid.length === 0) return [];
    const result = (await this.db.execute(sql`
      select json_agg(json_build_array(
        ${songs.id}, ${songs.displayName}, ${songs.fileName}, ${songs.fileType}, ${songs.size}, ${songs.uploadedAt},
        ${songs.title}, ${songs.artist}, ${songs.album}, ${songs.albumArtist}, ${songs.genre}, ${songs.year},
        ${songs.trackNumber}, ${songs.discNumber}, ${songs.durationSeconds}, ${songs.bitrate}, ${songs.sampleRate},
        ${songs.coverKey} is not null, ${songs.mbzRecordingId}, ${musicFolderOf}, ${songLikes.createdAt}
      ))::text as page
      from ${songs}
      left join ${songLikes} on ${songLikes.songId} = ${songs.id} and ${songLikes.userId} = ${viewerId}
      where ${songs.id} = any(${`{${valid.join(',')}}`}::int[]) and ${songs.missingSince} is null
    `)) as unknown as { rows: { page: string | null }[] };
    const text = result.rows[0]?.page;
    return text ? (JSON.parse(text) as PageJsonRow[]).map(toPageSongRow) : [];
  }

  /** Each value folded as search folds (encore_fold: case and accents), in one query. */
  async fold(values: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(values)];
    if (unique.length === 0) return new Map();
    const result = (await this.db.execute(
      sql`select v.value as raw, encore_fold(v.value) as folded from jsonb_array_elements_text(${JSON.stringify(unique)}::jsonb) as v(value)`,
    )) as unknown as { rows: { raw: string; folded: string }[] };
    return new Map(result.rows.map((row) => [row.raw, row.folded]));
  }

  /** The viewer's likes, newest first (of songs missing too: the index, which holds present songs only, leaves those out). */
  async likes(viewerId: number): Promise<{ songId: number; likedAt: Date }[]> {
    return this.db
      .select({ songId: songLikes.songId, likedAt: songLikes.createdAt })
      .from(songLikes)
      .where(eq(songLikes.userId, viewerId))
      .orderBy(desc(songLikes.createdAt), desc(songLikes.songId));
  }
}
