// Tables of the listening module: play counts, ratings, each user's play queue and what they are
// playing now. Only listening.repository.ts reads or writes them.
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { keyOf } from '../../platform/db/table-key.js';

/** How often a user played a song (a scrobble with submission) and when last. */
export const songPlays = pgTable(
  'song_plays',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    playCount: integer('play_count').notNull().default(0),
    lastPlayedAt: timestamp('last_played_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.songId] }), index('song_plays_song_idx').on(t.songId)],
);

/** A user's rating of a song, 1 to 5 (no row: not rated). */
export const songRatings = pgTable(
  'song_ratings',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.songId] }),
    index('song_ratings_song_idx').on(t.songId),
    check('song_ratings_rating_check', sql`${t.rating} between 1 and 5`),
  ],
);

/** A user's play queue, the same for the web player and Subsonic's savePlayQueue: saved whole each time. */
export const playQueues = pgTable('play_queues', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => keyOf('users'), { onDelete: 'cascade' }),
  /** The songs in order (a song deleted later is left out when read). */
  songIds: jsonb('song_ids').$type<number[]>().notNull().default([]),
  /** The song playing, if any. */
  currentSongId: integer('current_song_id'),
  /** Where in `songIds` the current song is (a queue may hold it twice); null in queues saved before it was kept. */
  currentIndex: integer('current_index'),
  positionMs: integer('position_ms').notNull().default(0),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  /** The client that saved it (`web`, or a Subsonic client's `c`). */
  changedBy: text('changed_by').notNull(),
});

/** What a user plays now (a scrobble without submission); shown while recent. */
export const nowPlaying = pgTable('now_playing', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => keyOf('users'), { onDelete: 'cascade' }),
  songId: integer('song_id')
    .notNull()
    .references(() => keyOf('songs'), { onDelete: 'cascade' }),
  client: text('client').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
});

/**
 * A user's link to ListenBrainz: their user token, encrypted (AES-256-GCM under a key derived
 * from the server secret, the user id as authenticated data), and the name ListenBrainz gave
 * for it. Counted plays are submitted as listens while it exists.
 */
export const listenBrainzLinks = pgTable('listenbrainz_links', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => keyOf('users'), { onDelete: 'cascade' }),
  tokenEncrypted: text('token_encrypted').notNull(),
  userName: text('user_name').notNull(),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  /** The last listen ListenBrainz accepted, and the last one it refused for good (with why). */
  lastSubmittedAt: timestamp('last_submitted_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
});
