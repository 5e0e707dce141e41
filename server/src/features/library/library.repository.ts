import { and, asc, count, desc, eq, inArray, isNotNull, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { SongSort } from '@encore/common/library.contract';
import { parseId } from '@encore/common/input.rules';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/pg-errors.js';
import type { SongRecord } from './library.port.js';
import { searchWords as searchWordsTable, songLikes, songSearch, songs } from './library.schema.js';

export type SongRow = typeof songs.$inferSelect;
export type SongMediaRow = Pick<SongRow, 'storageKey' | 'fileType' | 'fileName' | 'bitrate' | 'durationSeconds' | 'coverKey' | 'coverThumbKey'>;
export type NewSong = typeof songs.$inferInsert;

/** A song's row as one viewer sees it (their like). */
export interface ViewedSongRow {
  row: SongRow;
  isLiked: boolean;
  /** When the viewer liked it, when they did. */
  likedAt?: Date;
}

export interface SongFilter {
  /** Only this user's uploads. */
  ownerId?: number;
  /** Only the viewer's likes. */
  likedOnly?: boolean;
  /**
   * Every word must be in the title, artist or album, ignoring case and accents; a word of
   * FUZZY_MIN_LENGTH letters or more may also match with one typo.
   */
  search?: string;
  sort?: SongSort;
  limit?: number;
  offset?: number;
}

/**
 * Ids are PostgreSQL integers: anything larger cannot exist (and must not reach a query). Ids
 * also arrive from inside (a song page URL in a share request), so the contract's rule is kept here.
 */
const isId = (id: number) => parseId(id) !== undefined;

/** Words this long tolerate a typo (shorter ones would match too much). */
export const FUZZY_MIN_LENGTH = 5;
/**
 * pg_trgm's word similarity a fuzzy word needs: one substituted letter in a five-letter word
 * keeps half of its trigrams (the default 0.6 would need seven letters).
 */
const WORD_SIMILARITY_THRESHOLD = '0.5';
/** A typed word stands for at most this many library words (the most similar first). */
const MAX_CORRECTIONS = 8;
/** The words of a search, at most this many (the query is at most 200 characters anyway). */
const MAX_SEARCH_WORDS = 12;

/** The first key of the advisory locks that make a song's storage-quota check and its insert one step (the second: its owner). */
const OWNER_STORAGE_LOCK = 7_243_113;

/** Songs whose file is there: every song but those of a music folder whose file went missing. */
const present = isNull(songs.missingSince);

const ORDERS: Record<SongSort, SQL[]> = {
  recent: [desc(songs.uploadedAt), desc(songs.id)],
  title: [sql`lower(${songs.displayName})`, asc(songs.id)],
  artist: [sql`lower(${songs.artist})`, sql`lower(${songs.album})`, asc(songs.trackNumber), asc(songs.id)],
  album: [sql`lower(${songs.album})`, asc(songs.trackNumber), asc(songs.id)],
};

/** The same orders over song_search's keys (a search's matches). */
const SEARCH_ORDERS: Record<SongSort, SQL[]> = {
  recent: [desc(songSearch.uploadedAt), desc(songSearch.songId)],
  title: [asc(songSearch.titleKey), asc(songSearch.songId)],
  artist: [asc(songSearch.artistKey), asc(songSearch.albumKey), asc(songSearch.trackNumber), asc(songSearch.songId)],
  album: [asc(songSearch.albumKey), asc(songSearch.trackNumber), asc(songSearch.songId)],
};

/** The only code of the library feature that touches the database. */
export class LibraryRepository {
  constructor(private readonly db: Db) {}

  /**
   * One page of songs in the chosen order (newest first by default; ties broken by id so pages
   * never overlap) and how many songs match in all.
   */
  async list(viewerId: number, filter: SongFilter = {}): Promise<{ records: ViewedSongRow[]; total: number }> {
    const words = searchWords(filter.search);
    if (words.length > 0) return this.search(viewerId, filter, words);
    const where = this.conditions(filter);
    const order = ORDERS[filter.sort ?? 'recent'];
    // The page's ids first, from songs alone (and the likes for favorites): an offset deep
    // into 50,000 songs then skips index entries, not joined rows.
    let ids = this.idsFrom(this.db, viewerId, filter.likedOnly === true)
      .where(where)
      .orderBy(...order)
      .$dynamic();
    if (filter.limit !== undefined) ids = ids.limit(filter.limit);
    if (filter.offset !== undefined) ids = ids.offset(filter.offset);
    const records = (
      await this.selectFor(viewerId)
        .where(inArray(songs.id, ids))
        .orderBy(...order)
    ).map(toRecord);
    // A first page that is not full is everything: no second query.
    const firstPageComplete = (filter.offset ?? 0) === 0 && (filter.limit === undefined || records.length < filter.limit);
    const total = firstPageComplete ? records.length : await this.count(viewerId, filter, where);
    return { records, total };
  }

  /**
   * A search's page and its total, from song_search (narrow rows) in one pass over the
   * matches: every match has to be read for the total anyway (the trigram index gives them in
   * no useful order), so the page's ids come with `count(*) over ()`. Then the page's songs.
   * It runs in a transaction that sets pg_trgm's threshold for itself only.
   */
  private async search(viewerId: number, filter: SongFilter, words: string[]): Promise<{ records: ViewedSongRow[]; total: number }> {
    return this.db.transaction(async (transaction) => {
      const tx: Db = transaction;
      await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${WORD_SIMILARITY_THRESHOLD}, true)`);
      const where = this.searchConditions(filter, await this.withCorrections(tx, words));
      const liked = and(eq(songLikes.songId, songSearch.songId), eq(songLikes.userId, viewerId));
      const base = tx
        .select({ id: songSearch.songId, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(songSearch)
        .$dynamic();
      const matches = filter.likedOnly ? base.innerJoin(songLikes, liked) : base;
      let page = matches
        .where(where)
        .orderBy(...SEARCH_ORDERS[filter.sort ?? 'recent'])
        .$dynamic();
      if (filter.limit !== undefined) page = page.limit(filter.limit);
      if (filter.offset !== undefined) page = page.offset(filter.offset);
      const hits = await page;
      const first = hits[0];
      if (!first) {
        // A page past the last match has no row to carry the total.
        if ((filter.offset ?? 0) === 0) return { records: [], total: 0 };
        const counted = tx.select({ total: count() }).from(songSearch).$dynamic();
        const [row] = await (filter.likedOnly ? counted.innerJoin(songLikes, liked) : counted).where(where);
        return { records: [], total: row?.total ?? 0 };
      }
      const rows = await this.selectFor(viewerId, tx).where(
        inArray(
          songs.id,
          hits.map((hit) => hit.id),
        ),
      );
      const byId = new Map(rows.map((row) => [row.row.id, row]));
      // In the page's order; a song deleted since its id was read is left out.
      const records = hits.flatMap((hit) => {
        const row = byId.get(hit.id);
        return row ? [toRecord(row)] : [];
      });
      return { records, total: first.total };
    });
  }

  private idsFrom(db: Db, viewerId: number, likedOnly: boolean) {
    const base = db.select({ id: songs.id }).from(songs).$dynamic();
    return likedOnly ? base.innerJoin(songLikes, and(eq(songLikes.songId, songs.id), eq(songLikes.userId, viewerId))) : base;
  }

  private async count(viewerId: number, filter: SongFilter, where: SQL | undefined): Promise<number> {
    if (filter.likedOnly && filter.ownerId === undefined) {
      // Every like is of a song that exists (deleting a song deletes its likes), so all of the
      // favorites are counted from the likes alone: 2,500 likes no longer probe the songs. Only
      // the songs of a music folder whose files are missing (a few, by a partial index) are left out.
      const [row] = await this.db
        .select({ total: count() })
        .from(songLikes)
        .where(
          and(eq(songLikes.userId, viewerId), notInArray(songLikes.songId, this.db.select({ id: songs.id }).from(songs).where(isNotNull(songs.missingSince)))),
        );
      return row?.total ?? 0;
    }
    const base = this.db.select({ total: count() }).from(songs);
    const [row] = filter.likedOnly
      ? await base.innerJoin(songLikes, and(eq(songLikes.songId, songs.id), eq(songLikes.userId, viewerId))).where(where)
      : await base.where(where);
    return row?.total ?? 0;
  }

  /**
   * Each search word with the library's words it may be a typo of (`<%`: pg_trgm's word
   * similarity, over the few thousand words of search_words, not over every song). One word
   * after another: `db` is the search's transaction, a single connection that takes one query
   * at a time (node-postgres only queues overlapping ones, and pg 9 refuses them).
   */
  private async withCorrections(db: Db, words: string[]): Promise<SearchWord[]> {
    const corrected: SearchWord[] = [];
    for (const word of words) {
      if (word.length < FUZZY_MIN_LENGTH) {
        corrected.push({ word, corrections: [] });
        continue;
      }
      const rows = await db
        .select({ word: searchWordsTable.word })
        .from(searchWordsTable)
        .where(sql`encore_fold(${word}) <% ${searchWordsTable.word}`)
        .orderBy(sql`word_similarity(encore_fold(${word}), ${searchWordsTable.word}) desc`, searchWordsTable.word)
        .limit(MAX_CORRECTIONS);
      corrected.push({ word, corrections: rows.map((row) => row.word) });
    }
    return corrected;
  }

  private conditions(filter: SongFilter): SQL | undefined {
    const conditions: SQL[] = [present];
    if (filter.ownerId !== undefined) conditions.push(eq(songs.ownerId, filter.ownerId));
    if (filter.likedOnly) conditions.push(isNotNull(songLikes.userId));
    return and(...conditions);
  }

  private searchConditions(filter: SongFilter, words: SearchWord[]): SQL | undefined {
    const conditions: SQL[] = [eq(songSearch.missing, false)];
    if (filter.ownerId !== undefined) conditions.push(eq(songSearch.ownerId, filter.ownerId));
    for (const { word, corrections } of words) {
      // Substrings, through the trigram index: the word as typed, or a word it is a typo of.
      const matches = or(
        sql`${songSearch.searchText} like encore_fold(${likePattern(word)})`,
        ...corrections.map((correction) => sql`${songSearch.searchText} like ${likePattern(correction)}`),
      );
      if (matches) conditions.push(matches);
    }
    return and(...conditions);
  }

  async findById(id: number, viewerId: number): Promise<ViewedSongRow | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.selectFor(viewerId).where(and(eq(songs.id, id), present));
    return row && toRecord(row);
  }

  async findByIds(ids: number[], viewerId: number): Promise<ViewedSongRow[]> {
    const valid = [...new Set(ids.filter(isId))];
    if (valid.length === 0) return [];
    return (await this.selectFor(viewerId).where(and(inArray(songs.id, valid), present))).map(toRecord);
  }

  async displayNames(ids: readonly number[]): Promise<Map<number, string>> {
    const valid = [...new Set(ids.filter(isId))];
    if (valid.length === 0) return new Map();
    const rows = await this.db.select({ id: songs.id, displayName: songs.displayName }).from(songs).where(inArray(songs.id, valid));
    return new Map(rows.map((row) => [row.id, row.displayName]));
  }

  /** The song's row; undefined when it does not exist or its music folder's file is missing. */
  async findRow(id: number): Promise<SongRow | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db
      .select()
      .from(songs)
      .where(and(eq(songs.id, id), present));
    return row;
  }

  /** What serving a present song's file or cover needs, in one lean read (no tags, no transcript). */
  async findMedia(id: number): Promise<SongMediaRow | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await this.db
      .select({
        storageKey: songs.storageKey,
        fileType: songs.fileType,
        fileName: songs.fileName,
        bitrate: songs.bitrate,
        durationSeconds: songs.durationSeconds,
        coverKey: songs.coverKey,
        coverThumbKey: songs.coverThumbKey,
      })
      .from(songs)
      .where(and(eq(songs.id, id), present));
    return row;
  }

  async findByStorageKey(storageKey: string): Promise<SongRow | undefined> {
    const [row] = await this.db.select().from(songs).where(eq(songs.storageKey, storageKey));
    return row;
  }

  /** A song whose file had exactly these bytes (sha256, hex), if one was imported. */
  async findByContentSha256(contentSha256: string): Promise<SongRow | undefined> {
    const [row] = await this.db.select().from(songs).where(eq(songs.contentSha256, contentSha256));
    return row;
  }

  async songIdByContentSha256(contentSha256: string): Promise<number | undefined> {
    const [row] = await this.db.select({ id: songs.id }).from(songs).where(eq(songs.contentSha256, contentSha256)).limit(1);
    return row?.id;
  }

  /** The song stored under the first of `storageKeys` that has one, in one query. */
  async findByFirstStorageKey(storageKeys: readonly string[]): Promise<SongRow | undefined> {
    if (storageKeys.length === 0) return undefined;
    const rows = await this.db
      .select()
      .from(songs)
      .where(inArray(songs.storageKey, [...storageKeys]));
    for (const key of storageKeys) {
      const row = rows.find((candidate) => candidate.storageKey === key);
      if (row) return row;
    }
    return undefined;
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
      return { row: await this.takenBy(values, error), created: false };
    }
  }

  /**
   * As `insert`, when the owner's songs with this one take at most `maxBytes`; else nothing is
   * inserted and the bytes their songs take come back. The sum and the insert run in one
   * transaction under an advisory lock of the owner, so songs recorded at once, by any number
   * of processes, never pass the limit together.
   */
  async insertWithin(values: NewSong & { ownerId: number }, maxBytes: number): Promise<{ row: SongRow; created: boolean } | { usedBytes: number }> {
    try {
      return await this.db.transaction(async (transaction) => {
        const tx: Db = transaction;
        await tx.execute(sql`select pg_advisory_xact_lock(${OWNER_STORAGE_LOCK}, ${values.ownerId})`);
        // A retry whose song another process recorded meanwhile: that song, not a refusal.
        const [existing] = await tx.select().from(songs).where(eq(songs.storageKey, values.storageKey));
        if (existing) return { row: existing, created: false };
        const [used] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${songs.size}), 0)` })
          .from(songs)
          .where(eq(songs.ownerId, values.ownerId));
        const usedBytes = Number(used?.bytes ?? 0);
        if (usedBytes + values.size > maxBytes) return { usedBytes };
        const [row] = await tx.insert(songs).values(values).returning();
        if (!row) throw new Error('insert returned no row');
        return { row, created: true };
      });
    } catch (error) {
      return { row: await this.takenBy(values, error), created: false };
    }
  }

  /** The song that made `values`' insert a unique violation (the same upload, or the same bytes), or the error again. */
  private async takenBy(values: NewSong, error: unknown): Promise<SongRow> {
    const existing = isUniqueViolation(error, 'songs_storage_key_key')
      ? await this.findByStorageKey(values.storageKey)
      : isUniqueViolation(error, 'songs_content_sha256_key') && values.contentSha256
        ? await this.findByContentSha256(values.contentSha256)
        : undefined;
    if (!existing) throw error;
    return existing;
  }

  /** The songs of these contents (sha256), in one query: content → song id. */
  async songIdsByContentSha256(contentSha256s: readonly string[]): Promise<Map<string, number>> {
    if (contentSha256s.length === 0) return new Map();
    const rows = await this.db
      .select({ id: songs.id, contentSha256: songs.contentSha256 })
      .from(songs)
      .where(inArray(songs.contentSha256, [...new Set(contentSha256s)]));
    return new Map(rows.flatMap((row) => (row.contentSha256 === null ? [] : [[row.contentSha256, row.id] as const])));
  }

  /**
   * Songs in one statement (a folder import's batch): a row whose storage key or content
   * another song has (an import running beside) is left out; the rows made come back.
   */
  async insertBatch(values: readonly NewSong[]): Promise<SongRow[]> {
    if (values.length === 0) return [];
    return this.db
      .insert(songs)
      .values([...values])
      .onConflictDoNothing()
      .returning();
  }

  /**
   * Many songs in few statements (an import of a whole collection): rows whose storage key is
   * taken are skipped. Returns how many were added.
   */
  async insertMany(values: NewSong[], batchSize = 1000): Promise<number> {
    let added = 0;
    for (let start = 0; start < values.length; start += batchSize) {
      const batch = values.slice(start, start + batchSize);
      const rows = await this.db.insert(songs).values(batch).onConflictDoNothing({ target: songs.storageKey }).returning({ id: songs.id });
      added += rows.length;
    }
    // Fresh statistics and visibility for the planner (PGlite runs no autovacuum).
    if (added > 0) await this.db.execute(sql`vacuum (analyze) songs`);
    return added;
  }

  /** The file facts of the songs with these ids, missing files' songs too (what names their browser copies). */
  async rowsForKeys(ids: readonly number[]): Promise<Pick<SongRow, 'id' | 'storageKey' | 'size'>[]> {
    const valid = [...new Set(ids.filter(isId))];
    if (valid.length === 0) return [];
    return this.db.select({ id: songs.id, storageKey: songs.storageKey, size: songs.size }).from(songs).where(inArray(songs.id, valid));
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

  /**
   * Flips the like and returns the new state; undefined when the song does not exist (any
   * more). Each step is one statement that either changes the row or finds it changed: the
   * primary key makes an insert wait for a toggle in flight, so toggles at once answer as if
   * taken one after another, and the last answer is the state they leave.
   */
  async toggleLike(userId: number, songId: number): Promise<boolean | undefined> {
    if (!isId(songId)) return undefined;
    try {
      for (;;) {
        const added = await this.db
          .insert(songLikes)
          .values({ userId, songId })
          .onConflictDoNothing({ target: [songLikes.userId, songLikes.songId] })
          .returning({ songId: songLikes.songId });
        if (added.length > 0) return true;
        const removed = await this.db
          .delete(songLikes)
          .where(and(eq(songLikes.userId, userId), eq(songLikes.songId, songId)))
          .returning({ songId: songLikes.songId });
        if (removed.length > 0) return false;
        // Another toggle removed the like between the two statements: this one adds it again.
      }
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }

  /** Likes or unlikes as asked (whatever it was); false when there is no such song. */
  async setLike(userId: number, songId: number, liked: boolean): Promise<boolean> {
    if (!isId(songId)) return false;
    if (!liked) {
      await this.db.delete(songLikes).where(and(eq(songLikes.userId, userId), eq(songLikes.songId, songId)));
      return (await this.findRow(songId)) !== undefined;
    }
    try {
      await this.db
        .insert(songLikes)
        .values({ userId, songId })
        .onConflictDoNothing({ target: [songLikes.userId, songLikes.songId] });
      return true;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  private selectFor(viewerId: number, db: Db = this.db) {
    return db
      .select({ row: songs, likedBy: songLikes.userId, likedAt: songLikes.createdAt })
      .from(songs)
      .leftJoin(songLikes, and(eq(songLikes.songId, songs.id), eq(songLikes.userId, viewerId)));
  }
}

/** The search's words (lower case; accents are folded by the database), without duplicates. */
interface SearchWord {
  word: string;
  corrections: string[];
}

/** `%word%` for LIKE, its own % and _ taken literally. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchWords(search: string | undefined): string[] {
  const words = (search ?? '')
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

function toRecord(selected: { row: SongRow; likedBy: number | null; likedAt: Date | null }): ViewedSongRow {
  return { row: selected.row, isLiked: selected.likedBy !== null, ...(selected.likedAt ? { likedAt: selected.likedAt } : {}) };
}

/** The domain record of a song's row (its uploader's name comes from the accounts): what other modules and the routes see of it. */
export function toSongRecord({ row, isLiked, likedAt }: ViewedSongRow, uploadedBy: string): SongRecord {
  // uploadedBy is '' for a song of a music folder (no uploader).
  return {
    id: row.id,
    ownerId: row.ownerId,
    uploadedBy,
    isLiked,
    ...(likedAt ? { likedAt } : {}),
    displayName: row.displayName,
    fileName: row.fileName,
    fileType: row.fileType,
    storageKey: row.storageKey,
    size: row.size,
    uploadedAt: row.uploadedAt,
    folderId: row.folderId,
    title: row.title,
    artist: row.artist,
    album: row.album,
    albumArtist: row.albumArtist,
    genre: row.genre,
    year: row.year,
    trackNumber: row.trackNumber,
    discNumber: row.discNumber,
    durationSeconds: row.durationSeconds,
    bitrate: row.bitrate,
    sampleRate: row.sampleRate,
    transcript: row.transcript,
    hasCover: row.coverKey !== null,
  };
}
