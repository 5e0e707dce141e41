import { and, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { NowPlayingEntry, SavedQueue, SongListening, SongPlays } from './listening.port.js';
import { listenBrainzLinks, nowPlaying, playQueues, songPlays, songRatings } from './listening.schema.js';

/** A play as counted: whether this call counted it, and the count and last play after it. */
export interface PlayCount {
  counted: boolean;
  playCount: number;
  lastPlayedAt: Date;
}

export type ListenBrainzLinkRow = typeof listenBrainzLinks.$inferSelect;

/** The only code of the listening module that touches the database. */
export class ListeningRepository {
  constructor(private readonly db: Db) {}

  /**
   * One play more unless the user's last counted play of the song is less than `windowSeconds`
   * from `at` (either side): one statement, so concurrent calls for the same play count it once
   * (PostgreSQL re-checks the condition on the row the other call wrote).
   */
  async countPlayOnce(userId: number, songId: number, at: Date, windowSeconds: number): Promise<PlayCount> {
    const [counted] = await this.db
      .insert(songPlays)
      .values({ userId, songId, playCount: 1, lastPlayedAt: at })
      .onConflictDoUpdate({
        target: [songPlays.userId, songPlays.songId],
        set: {
          playCount: sql`${songPlays.playCount} + 1`,
          lastPlayedAt: sql`greatest(${songPlays.lastPlayedAt}, excluded.last_played_at)`,
        },
        setWhere: sql`abs(extract(epoch from (excluded.last_played_at - ${songPlays.lastPlayedAt}))) >= ${windowSeconds}`,
      })
      .returning({ playCount: songPlays.playCount, lastPlayedAt: songPlays.lastPlayedAt });
    if (counted) return { counted: true, ...counted };
    const [row] = await this.db
      .select({ playCount: songPlays.playCount, lastPlayedAt: songPlays.lastPlayedAt })
      .from(songPlays)
      .where(and(eq(songPlays.userId, userId), eq(songPlays.songId, songId)));
    if (!row) throw new Error('A play neither counted nor found');
    return { counted: false, ...row };
  }

  /** The user's played songs, newest last play first (`recent`) or most plays first (`most`, then newest). */
  async history(userId: number, kind: 'recent' | 'most', limit: number): Promise<{ songId: number; playCount: number; lastPlayedAt: Date }[]> {
    const order =
      kind === 'recent'
        ? [desc(songPlays.lastPlayedAt), desc(songPlays.songId)]
        : [desc(songPlays.playCount), desc(songPlays.lastPlayedAt), desc(songPlays.songId)];
    return this.db
      .select({ songId: songPlays.songId, playCount: songPlays.playCount, lastPlayedAt: songPlays.lastPlayedAt })
      .from(songPlays)
      .where(and(eq(songPlays.userId, userId), gt(songPlays.playCount, 0)))
      .orderBy(...order)
      .limit(limit);
  }

  async listenBrainzLink(userId: number): Promise<ListenBrainzLinkRow | undefined> {
    const [row] = await this.db.select().from(listenBrainzLinks).where(eq(listenBrainzLinks.userId, userId));
    return row;
  }

  /** Links (or links again: a new token replaces the old, its history of errors cleared). */
  async saveListenBrainzLink(userId: number, tokenEncrypted: string, userName: string, at: Date): Promise<void> {
    const values = { tokenEncrypted, userName, linkedAt: at, lastSubmittedAt: null, lastError: null, lastErrorAt: null };
    await this.db
      .insert(listenBrainzLinks)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: listenBrainzLinks.userId, set: values });
  }

  async deleteListenBrainzLink(userId: number): Promise<void> {
    await this.db.delete(listenBrainzLinks).where(eq(listenBrainzLinks.userId, userId));
  }

  /** A listen went through: the last error is history. Only the link it was sent with (a new token starts afresh). */
  async noteListenSubmitted(userId: number, tokenEncrypted: string, at: Date): Promise<void> {
    await this.db
      .update(listenBrainzLinks)
      .set({ lastSubmittedAt: at, lastError: null, lastErrorAt: null })
      .where(and(eq(listenBrainzLinks.userId, userId), eq(listenBrainzLinks.tokenEncrypted, tokenEncrypted)));
  }

  async noteListenFailed(userId: number, tokenEncrypted: string, message: string, at: Date): Promise<void> {
    await this.db
      .update(listenBrainzLinks)
      .set({ lastError: message, lastErrorAt: at })
      .where(and(eq(listenBrainzLinks.userId, userId), eq(listenBrainzLinks.tokenEncrypted, tokenEncrypted)));
  }

  async setNowPlaying(userId: number, songId: number, client: string, at: Date): Promise<void> {
    await this.db
      .insert(nowPlaying)
      .values({ userId, songId, client, startedAt: at })
      .onConflictDoUpdate({ target: nowPlaying.userId, set: { songId, client, startedAt: at } });
  }

  async nowPlaying(since: Date): Promise<NowPlayingEntry[]> {
    return this.db
      .select({ userId: nowPlaying.userId, songId: nowPlaying.songId, client: nowPlaying.client, startedAt: nowPlaying.startedAt })
      .from(nowPlaying)
      .where(gte(nowPlaying.startedAt, since))
      .orderBy(desc(nowPlaying.startedAt));
  }

  async setRating(userId: number, songId: number, rating: number): Promise<void> {
    if (rating === 0) {
      await this.db.delete(songRatings).where(and(eq(songRatings.userId, userId), eq(songRatings.songId, songId)));
      return;
    }
    await this.db
      .insert(songRatings)
      .values({ userId, songId, rating })
      .onConflictDoUpdate({ target: [songRatings.userId, songRatings.songId], set: { rating } });
  }

  async ratings(userId: number, songIds: readonly number[]): Promise<Map<number, number>> {
    if (songIds.length === 0) return new Map();
    const rows = await this.db
      .select({ songId: songRatings.songId, rating: songRatings.rating })
      .from(songRatings)
      .where(and(eq(songRatings.userId, userId), inArray(songRatings.songId, [...songIds])));
    return new Map(rows.map((row) => [row.songId, row.rating]));
  }

  async plays(userId: number, songIds: readonly number[]): Promise<Map<number, SongPlays>> {
    if (songIds.length === 0) return new Map();
    const rows = await this.db
      .select({ songId: songPlays.songId, playCount: songPlays.playCount, lastPlayedAt: songPlays.lastPlayedAt })
      .from(songPlays)
      .where(and(eq(songPlays.userId, userId), inArray(songPlays.songId, [...songIds])));
    return new Map(rows.map((row) => [row.songId, { playCount: row.playCount, lastPlayedAt: row.lastPlayedAt }]));
  }

  /**
   * The user's plays and ratings in one query (a full join of the two): of `songIds`, or of
   * every song they played or rated when none are given.
   */
  async listening(userId: number, songIds?: readonly number[]): Promise<Map<number, SongListening>> {
    if (songIds !== undefined && songIds.length === 0) return new Map();
    // One array parameter, whatever the page's size (not a placeholder per id).
    const only = (column: typeof songPlays.songId | typeof songRatings.songId) =>
      songIds === undefined ? sql`` : sql` and ${column} = any(${`{${[...new Set(songIds)].filter(Number.isSafeInteger).join(',')}}`}::int[])`;
    // The rows come back as one JSON text: PGlite hands thousands of rows over value by value several times slower.
    const result = (await this.db.execute(sql`
      select json_agg(json_build_array(coalesce(plays.song_id, ratings.song_id), plays.play_count, plays.last_played_at, ratings.rating))::text as rows
      from (select ${songPlays.songId} as song_id, ${songPlays.playCount} as play_count, ${songPlays.lastPlayedAt} as last_played_at
            from ${songPlays} where ${songPlays.userId} = ${userId}${only(songPlays.songId)}) as plays
      full join (select ${songRatings.songId} as song_id, ${songRatings.rating} as rating
            from ${songRatings} where ${songRatings.userId} = ${userId}${only(songRatings.songId)}) as ratings
        on ratings.song_id = plays.song_id
    `)) as unknown as { rows: { rows: string | null }[] };
    const text = result.rows[0]?.rows;
    const listening = new Map<number, SongListening>();
    if (!text) return listening;
    for (const [songId, playCount, lastPlayedAt, rating] of JSON.parse(text) as [number, number | null, string | null, number | null][]) {
      listening.set(songId, {
        playCount: playCount ?? 0,
        ...(lastPlayedAt !== null ? { lastPlayedAt: new Date(lastPlayedAt) } : {}),
        ...(rating !== null ? { rating } : {}),
      });
    }
    return listening;
  }

  async queue(userId: number): Promise<SavedQueue | undefined> {
    const [row] = await this.db.select().from(playQueues).where(eq(playQueues.userId, userId));
    if (!row) return undefined;
    return {
      songIds: row.songIds,
      currentSongId: row.currentSongId,
      currentIndex: row.currentIndex,
      positionMs: row.positionMs,
      changedAt: row.changedAt,
      changedBy: row.changedBy,
    };
  }

  /** One statement: concurrent saves each replace the whole row, so the last one wins whole. */
  async saveQueue(userId: number, queue: Omit<SavedQueue, 'changedAt'>, at: Date): Promise<SavedQueue> {
    const values = {
      songIds: queue.songIds,
      currentSongId: queue.currentSongId,
      currentIndex: queue.currentIndex,
      positionMs: queue.positionMs,
      changedAt: at,
      changedBy: queue.changedBy,
    };
    await this.db
      .insert(playQueues)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: playQueues.userId, set: values });
    return { ...values };
  }
}
