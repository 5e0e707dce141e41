import { NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import { MAX_BOOKMARK_COMMENT, MAX_BOOKMARK_POSITION_MS, type BookmarkRecord, type Bookmarks } from './bookmarks.port.js';
import type { BookmarksRepository } from './bookmarks.repository.js';

/** Whether songs exist (the library's catalogue). */
export interface SongExistence {
  displayNames(ids: readonly number[]): Promise<Map<number, string>>;
}

/** The rules of bookmarks: the song must exist, the position be within a day, the comment short. */
export class BookmarksService implements Bookmarks {
  constructor(
    private readonly repository: BookmarksRepository,
    private readonly songs: SongExistence,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(userId: number): Promise<BookmarkRecord[]> {
    return this.repository.list(userId);
  }

  /** The user's bookmark of the song, if any. */
  get(userId: number, songId: number): Promise<BookmarkRecord | undefined> {
    return this.repository.get(userId, songId);
  }

  async save(userId: number, songId: number, positionMs: number, comment: string | null): Promise<BookmarkRecord> {
    if (!Number.isInteger(positionMs) || positionMs < 0 || positionMs > MAX_BOOKMARK_POSITION_MS) {
      throw new ValidationError('A bookmark position is a whole number of milliseconds from 0 to a day');
    }
    if (comment !== null && comment.length > MAX_BOOKMARK_COMMENT)
      throw new ValidationError(`A bookmark comment holds at most ${MAX_BOOKMARK_COMMENT} characters`);
    if (!(await this.songs.displayNames([songId])).has(songId)) throw new NotFoundError('Song not found');
    return this.repository.save(userId, songId, positionMs, comment === '' ? null : comment, this.now());
  }

  remove(userId: number, songId: number): Promise<boolean> {
    return this.repository.remove(userId, songId);
  }
}
