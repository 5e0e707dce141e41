import { definePort } from '../../modules/module.js';

/** A user's place in a song. */
export interface BookmarkRecord {
  songId: number;
  positionMs: number;
  comment: string | null;
  createdAt: Date;
  changedAt: Date;
}

/** The most a comment holds (characters). */
export const MAX_BOOKMARK_COMMENT = 1000;
/** The furthest a position may be: a day in milliseconds (no song is longer). */
export const MAX_BOOKMARK_POSITION_MS = 24 * 3600_000;

/**
 * Bookmarks: a position in a long song, per user (Subsonic's bookmarks; the web player's resume).
 * An unknown song is a not-found error; a bad position or comment a validation error.
 */
export interface Bookmarks {
  /** The user's bookmarks, the latest changed first. */
  list(userId: number): Promise<BookmarkRecord[]>;
  /** Creates or replaces the user's bookmark of the song. */
  save(userId: number, songId: number, positionMs: number, comment: string | null): Promise<BookmarkRecord>;
  /** Removes it; false when there was none. */
  remove(userId: number, songId: number): Promise<boolean>;
}

export const bookmarksPort = definePort<Bookmarks>('bookmarks', "A user's saved positions in long songs (Subsonic bookmarks), one per song.");
