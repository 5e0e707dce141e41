import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { SongCatalogue } from '../library/library.port.js';
import type { ListeningRepository } from './listening.repository.js';
import type { Listening, NowPlayingEntry, SavedQueue, ScrobbleOptions, SongListening, SongPlays } from './listening.port.js';

const SONG_NOT_FOUND = 'Song not found';

/** Play counts, ratings, the queue and now playing, over the repository, songs checked against the catalogue. */
export class ListeningService implements Listening {
  constructor(
    private readonly repository: ListeningRepository,
    private readonly catalogue: Pick<SongCatalogue, 'displayNames'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async requireSong(songId: number): Promise<void> {
    if (!(await this.catalogue.displayNames([songId])).has(songId)) throw new NotFoundError(SONG_NOT_FOUND);
  }

  /** Those of `songIds` that name songs, in order (duplicates kept: a queue may hold a song twice). */
  private async existing(songIds: readonly number[]): Promise<number[]> {
    if (songIds.length === 0) return [];
    const known = await this.catalogue.displayNames([...new Set(songIds)]);
    return songIds.filter((id) => known.has(id));
  }

  async scrobble(userId: number, songId: number, options: ScrobbleOptions): Promise<void> {
    await this.requireSong(songId);
    if (options.submission) await this.repository.countPlay(userId, songId, options.at);
    else await this.repository.setNowPlaying(userId, songId, options.client, options.at);
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
    if (!saved) return { songIds: [], currentSongId: null, positionMs: 0, changedAt: this.now(), changedBy: '' };
    const songIds = await this.existing(saved.songIds);
    const currentSongId = saved.currentSongId !== null && songIds.includes(saved.currentSongId) ? saved.currentSongId : null;
    return { ...saved, songIds, currentSongId, positionMs: currentSongId === null ? 0 : saved.positionMs };
  }

  async saveQueue(
    userId: number,
    queue: { songIds: readonly number[]; currentSongId: number | null; positionMs: number },
    client: string,
  ): Promise<SavedQueue> {
    const songIds = await this.existing(queue.songIds);
    const currentSongId = queue.currentSongId !== null && songIds.includes(queue.currentSongId) ? queue.currentSongId : null;
    const positionMs = currentSongId === null ? 0 : Math.max(0, Math.round(queue.positionMs));
    return this.repository.saveQueue(userId, { songIds, currentSongId, positionMs, changedBy: client }, this.now());
  }
}
