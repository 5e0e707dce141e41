import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { NowPlayingEntry, SavedQueue, SongListening, SongPlays } from './listening.port.js';
import { nowPlaying, playQueues, songPlays, songRatings } from './listening.schema.js';

/** The only code of the listening module that touches the database. */
export class ListeningRepository {
  constructor(private readonly db: Db) {}

  /** One play more; last played moves forward only (a late scrobble of an older play keeps the newer date). */
  async countPlay(userId: number, songId: number, at: Date): Promise<void> {
    await this.db
      .insert(songPlays)
      .values({ userId, songId, playCount: 1, lastPlayedAt: at })
      .onConflictDoUpdate({
        target: [songPlays.userId, songPlays.songId],
        set: {
          playCount: sql`${songPlays.playCount} + 1`,
          lastPlayedAt: sql`greatest(${songPlays.lastPlayedAt}, excluded.last_played_at)`,
        },
      });
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
    const ids = songIds === undefined ? undefined : sql`${`{${[...new Set(songIds)].filter(Number.isSafeInteger).join(',')}}`}::int[]`;
    const plays = this.db
      .select({ songId: songPlays.songId, playCount: songPlays.playCount, lastPlayedAt: songPlays.lastPlayedAt })
      .from(songPlays)
      .where(and(eq(songPlays.userId, userId), ids && sql`${songPlays.songId} = any(${ids})`))
      .as('plays');
    const ratings = this.db
      .select({ songId: songRatings.songId, rating: songRatings.rating })
      .from(songRatings)
      .where(and(eq(songRatings.userId, userId), ids && sql`${songRatings.songId} = any(${ids})`))
      .as('ratings');
    const rows = await this.db
      .select({ playedId: plays.songId, ratedId: ratings.songId, playCount: plays.playCount, lastPlayedAt: plays.lastPlayedAt, rating: ratings.rating })
      .from(plays)
      .fullJoin(ratings, eq(ratings.songId, plays.songId));
    const listening = new Map<number, SongListening>();
    for (const row of rows) {
      const songId = row.playedId ?? row.ratedId;
      if (songId === null) continue;
      listening.set(songId, {
        playCount: row.playCount ?? 0,
        ...(row.lastPlayedAt ? { lastPlayedAt: row.lastPlayedAt } : {}),
        ...(row.rating !== null ? { rating: row.rating } : {}),
      });
    }
    return listening;
  }

  async queue(userId: number): Promise<SavedQueue | undefined> {
    const [row] = await this.db.select().from(playQueues).where(eq(playQueues.userId, userId));
    if (!row) return undefined;
    return { songIds: row.songIds, currentSongId: row.currentSongId, positionMs: row.positionMs, changedAt: row.changedAt, changedBy: row.changedBy };
  }

  /** One statement: concurrent saves each replace the whole row, so the last one wins whole. */
  async saveQueue(userId: number, queue: Omit<SavedQueue, 'changedAt'>, at: Date): Promise<SavedQueue> {
    const values = { songIds: queue.songIds, currentSongId: queue.currentSongId, positionMs: queue.positionMs, changedAt: at, changedBy: queue.changedBy };
    await this.db
      .insert(playQueues)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: playQueues.userId, set: values });
    return { ...values };
  }
}
