// Tables of the playlists module; only playlists.repository.ts reads or writes them.
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';
import type { AiPlaylistSize } from './playlists.port.js';

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
    /**
     * The size a prompt's playlist was generated with (the songs or minutes its prompt asked for;
     * neither: the default size). Null for playlists a user made and for "More like this": only a
     * playlist with one can be kept fresh, and its re-rankings keep that size (issue 41).
     */
    aiSize: jsonb('ai_size').$type<AiPlaylistSize>(),
    /** Ranked again with its prompt when songs are added or analysed (issue 41); the owner's switch. */
    keepFresh: boolean('keep_fresh').notNull().default(false),
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
    /** Chosen by an AI playlist's ranking (a re-ranking may replace it); false for a song the user added. */
    generated: boolean('generated').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.songId] }),
    unique('playlist_songs_position_key').on(t.playlistId, t.position),
    index('playlist_songs_song_idx').on(t.songId),
  ],
);

/**
 * Songs the owner removed by hand from an AI playlist (issue 41): a re-ranking never brings
 * them back. Adding one back by hand makes it the user's song again.
 */
export const playlistRemovedSongs = pgTable(
  'playlist_removed_songs',
  {
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.playlistId, t.songId] }), index('playlist_removed_songs_song_idx').on(t.songId)],
);
