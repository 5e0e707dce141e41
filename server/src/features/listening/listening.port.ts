import { definePort } from '../../modules/module.js';

/** A user's play count of a song and when they last played it. */
export interface SongPlays {
  playCount: number;
  lastPlayedAt: Date;
}

/** A user's listening of one song: plays (0 when never), last play and rating when any. */
export interface SongListening {
  playCount: number;
  lastPlayedAt?: Date;
  /** 1..5. */
  rating?: number;
}

/** Someone playing a song now (a scrobble without submission). */
export interface NowPlayingEntry {
  userId: number;
  songId: number;
  /** The client that said so (`c` of a Subsonic call, `web` for the web player). */
  client: string;
  startedAt: Date;
}

/** A user's play queue as saved: song ids in order, the current one, where in it. */
export interface SavedQueue {
  songIds: number[];
  currentSongId: number | null;
  /** The current song's place in `songIds` (0-based; a song may be queued twice); null when none plays. */
  currentIndex: number | null;
  positionMs: number;
  changedAt: Date;
  /** The client that saved it. */
  changedBy: string;
}

export interface ScrobbleOptions {
  /** True counts a play and sets last played; false sets what the user plays now. */
  submission: boolean;
  /** When the song was played (started). */
  at: Date;
  client: string;
}

/**
 * What users listen to: play counts, ratings, the play queue shared by the web player and the
 * Subsonic API, and what each plays now. Songs are checked against the catalogue: an unknown
 * song is a not-found error (queues drop them instead).
 */
export interface Listening {
  scrobble(userId: number, songId: number, options: ScrobbleOptions): Promise<void>;
  /** Who plays what now, started within the last `withinMinutes`, newest first. */
  nowPlaying(withinMinutes: number): Promise<NowPlayingEntry[]>;
  /** 1..5 rates the song; 0 clears the rating. */
  setRating(userId: number, songId: number, rating: number): Promise<void>;
  /** The user's ratings of those of `songIds` they rated. */
  ratings(userId: number, songIds: readonly number[]): Promise<Map<number, number>>;
  /** The user's plays of those of `songIds` they played. */
  plays(userId: number, songIds: readonly number[]): Promise<Map<number, SongPlays>>;
  /** The user's plays and ratings of those of `songIds` they played or rated, in one query (the song elements of a page). */
  listeningOf(userId: number, songIds: readonly number[]): Promise<Map<number, SongListening>>;
  /** Every song the user played or rated, in one query (album lists by plays and ratings). */
  allListening(userId: number): Promise<Map<number, SongListening>>;
  /** The user's queue; empty (no songs) when none was saved. Songs deleted since are left out. */
  queue(userId: number): Promise<SavedQueue>;
  /**
   * Saves the queue whole: ids of unknown songs dropped, the current one null when not among them.
   * `currentIndex` (a place in `songIds` as given) wins over `currentSongId` when given.
   */
  saveQueue(
    userId: number,
    queue: { songIds: readonly number[]; currentSongId: number | null; currentIndex?: number | null; positionMs: number },
    client: string,
  ): Promise<SavedQueue>;
}

export const listeningPort = definePort<Listening>(
  'listening',
  "A user's play counts, ratings and play queue (shared by the web player and Subsonic clients), and who plays what now.",
);
