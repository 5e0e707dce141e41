// Tables of the playlists module; only playlists.repository.ts reads or writes them.
import { index, integer, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/** A user's private playlist. */
export const playlists = pgTable(
  'playlists',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The prompt an AI playlist was generated from; null for playlists a user made. */
    aiPrompt: text('ai_prompt'),
  },
  (t) => [index('playlists_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * The songs of a playlist in order; a song appears at most once per playlist, and a position
 * once (the constraint is DEFERRABLE in the migration, so one UPDATE may permute positions).
 */
export const playlistSongs = pgTable(
  'playlist_songs',
  {
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.songId] }),
    unique('playlist_songs_position_key').on(t.playlistId, t.position),
    index('playlist_songs_song_idx').on(t.songId),
  ],
);
