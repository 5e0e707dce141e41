import { PLAY_COUNTS_AFTER_SECONDS } from '@encore/common/listening.contract';
import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SongCatalogue, SongRecord } from '../library/library.port.js';
import type { ListeningRepository, PlayCount } from './listening.repository.js';
import type { Listening, NowPlayingEntry, SavedQueue, ScrobbleOptions, SongListening, SongPlays } from './listening.port.js';

const SONG_NOT_FOUND = 'Song not found';
/** A song whose length is unknown: two plays of it less than this apart are one. */
const UNKNOWN_LENGTH_WINDOW_SECONDS = 60;

/**
 * When a play may count (issue 30): after half the song or 4 minutes, whichever comes first.
 * That is also the least time between two real plays of it (restarting it at once, the rule
 * must be met again), so a second count within it is the same play sent twice.
 */
export function playThresholdSeconds(durationSeconds: number | null): number {
  if (durationSeconds === null || !(durationSeconds > 0)) return UNKNOWN_LENGTH_WINDOW_SECONDS;
  return Math.min(durationSeconds / 2, PLAY_COUNTS_AFTER_SECONDS);
}

/** A counted play, for who wants to hear of it (ListenBrainz). */
export interface CountedPlayEvent {
  userId: number;
  song: SongRecord;
  /** When the listening started. */
  startedAt: Date;
}

export interface CountPlayOptions {
  /** When the play was counted (the web player) or played (a Subsonic scrobble's time). */
  at: Date;
  /** When the listening started, if known (else `at`), or how to tell it from the song. */
  startedAt?: Date | ((song: SongRecord) => Date);
  client: string;
}

/** Play counts, ratings, the queue and now playing, over the repository, songs checked against the catalogue. */
export class ListeningService implements Listening {
  private readonly playListeners: ((play: CountedPlayEvent) => Promise<void>)[] = [];

  constructor(
    private readonly repository: ListeningRepository,
    private readonly catalogue: Pick<SongCatalogue, 'displayNames' | 'get' | 'songsByIds'>,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `listener` hears of every counted play; its failure is logged, the play stays counted. */
  onPlayCounted(listener: (play: CountedPlayEvent) => Promise<void>): void {
    this.playListeners.push(listener);
  }

  /**
   * Counts a play of the song by the user unless their last counted play of it is within the
   * song's play threshold of `at` (the same play sent twice, or by two devices); a not-found
   * error when the song does not exist.
   */
  async countPlay(userId: number, songId: number, options: CountPlayOptions): Promise<PlayCount> {
    const song = await this.catalogue.get(songId, userId);
    const result = await this.repository.countPlayOnce(userId, songId, options.at, playThresholdSeconds(song.durationSeconds));
    if (result.counted) {
      const startedAt = typeof options.startedAt === 'function' ? options.startedAt(song) : (options.startedAt ?? options.at);
      const event = { userId, song, startedAt };
      for (const listener of this.playListeners) {
        await listener(event).catch((error: unknown) => this.logger.warn({ err: error, userId, songId }, 'a counted-play listener failed'));
      }
    }
    return result;
  }

  /** The user's played songs that still exist, with their counts: recently or most played first. */
  async history(userId: number, kind: 'recent' | 'most', limit: number): Promise<{ song: SongRecord; playCount: number; lastPlayedAt: Date }[]> {
    // A little more than asked: songs hidden since (a music folder's missing files) are left out.
    const rows = await this.repository.history(userId, kind, limit + 20);
    const songs = new Map(
      (
        await this.catalogue.songsByIds(
          rows.map((row) => row.songId),
          userId,
        )
      ).map((song) => [song.id, song]),
    );
    return rows
      .flatMap((row) => {
        const song = songs.get(row.songId);
        return song ? [{ song, playCount: row.playCount, lastPlayedAt: row.lastPlayedAt }] : [];
      })
      .slice(0, limit);
  }

  private async requireSong(songId: number): Promise<void> {
    if (!(await this.catalogue.displayNames([songId])).has(songId)) throw new NotFoundError(SONG_NOT_FOUND);
  }

  /** A submission counts a play by the rule of countPlay (a client scrobbling one play twice counts it once). */
  async scrobble(userId: number, songId: number, options: ScrobbleOptions): Promise<void> {
    if (options.submission) {
      await this.countPlay(userId, songId, { at: options.at, client: options.client });
      return;
    }
    await this.requireSong(songId);
    await this.repository.setNowPlaying(userId, songId, options.client, options.at);
  }

  async nowPlaying(withinMinutes: number): Promise<NowPlayingEntry[]> {
    return this.repository.nowPlaying(new Date(this.now().getTime() - withinMinutes * 60_000));
  }

  async setRating(userId: number, songId: number, rating: number): Promise<void> {
    if (!Number.isInteger(rating) || rating < 0 || rating > 5) throw new ValidationError('A rating is a whole number from 0 to 5');
    await this.requireSong(songId);
    await this.repository.setRating(userId, songId, rating);
  }

  ratings(userId: number, songIds: readonly number[]): Promise<Map<number, number>> {
    return this.repository.ratings(userId, songIds);
  }

  plays(userId: number, songIds: readonly number[]): Promise<Map<number, SongPlays>> {
    return this.repository.plays(userId, songIds);
  }

  listeningOf(userId: number, songIds: readonly number[]): Promise<Map<number, SongListening>> {
    return this.repository.listening(userId, songIds);
  }

  allListening(userId: number): Promise<Map<number, SongListening>> {
    return this.repository.listening(userId);
  }

  async queue(userId: number): Promise<SavedQueue> {
    const saved = await this.repository.queue(userId);
    if (!saved) return { songIds: [], currentSongId: null, currentIndex: null, positionMs: 0, changedAt: this.now(), changedBy: '' };
    const kept = await this.existingPlaces(saved.songIds);
    const index = currentPlace(saved.songIds, saved.currentIndex, saved.currentSongId);
    const currentIndex = index === null ? null : (kept.places.get(index) ?? null);
    const currentSongId = currentIndex === null ? null : (kept.songIds[currentIndex] ?? null);
    return { ...saved, songIds: kept.songIds, currentSongId, currentIndex, positionMs: currentIndex === null ? 0 : saved.positionMs };
  }

  async saveQueue(
    userId: number,
    queue: { songIds: readonly number[]; currentSongId: number | null; currentIndex?: number | null; positionMs: number },
    client: string,
  ): Promise<SavedQueue> {
    const kept = await this.existingPlaces(queue.songIds);
    const index = currentPlace(queue.songIds, queue.currentIndex ?? null, queue.currentSongId);
    const currentIndex = index === null ? null : (kept.places.get(index) ?? null);
    const currentSongId = currentIndex === null ? null : (kept.songIds[currentIndex] ?? null);
    const positionMs = currentIndex === null ? 0 : Math.max(0, Math.round(queue.positionMs));
    return this.repository.saveQueue(userId, { songIds: kept.songIds, currentSongId, currentIndex, positionMs, changedBy: client }, this.now());
  }

  /** The songs of `songIds` that exist, in order, and where each place of `songIds` went among them. */
  private async existingPlaces(songIds: readonly number[]): Promise<{ songIds: number[]; places: Map<number, number> }> {
    const known = songIds.length === 0 ? new Map<number, string>() : await this.catalogue.displayNames([...new Set(songIds)]);
    const kept: number[] = [];
    const places = new Map<number, number>();
    songIds.forEach((id, index) => {
      if (!known.has(id)) return;
      places.set(index, kept.length);
      kept.push(id);
    });
    return { songIds: kept, places };
  }
}

/** The place of the current song in `songIds`: `index` when it is one (and holds `songId` when that is known too), else `songId`'s first place. */
function currentPlace(songIds: readonly number[], index: number | null, songId: number | null): number | null {
  if (index !== null && index >= 0 && index < songIds.length && (songId === null || songIds[index] === songId)) return index;
  if (songId === null) return null;
  const first = songIds.indexOf(songId);
  return first === -1 ? null : first;
}
