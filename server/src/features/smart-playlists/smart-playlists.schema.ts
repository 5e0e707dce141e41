// Tables of the smart-playlists module; only smart-playlists.repository.ts reads or writes them.
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * A user's smart playlist: a name and rules in Navidrome's `.nsp` shape (checked when saved).
 * Its songs are never stored: they are computed in the database at each read, for the viewer.
 */
export const smartPlaylists = pgTable(
  'smart_playlists',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment'),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
    /** 'user' (made or imported by its owner), 'preset' (given to a new user), 'folder' (a .nsp file of a music folder). */
    source: text('source', { enum: ['user', 'preset', 'folder'] })
      .notNull()
      .default('user'),
    /** For a folder's playlist: `["<folder>","<path>"]` (JSON) of its .nsp file (read-only here; the file is the truth). */
    folderFile: text('folder_file'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('smart_playlists_owner_idx').on(t.ownerId, t.createdAt), uniqueIndex('smart_playlists_folder_file_key').on(t.folderFile)],
);

/** Users who were given the presets once: deleting a preset does not bring it back. */
export const smartPlaylistPresets = pgTable('smart_playlist_presets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => keyOf('users'), { onDelete: 'cascade' }),
  givenAt: timestamp('given_at', { withTimezone: true }).notNull().defaultNow(),
});
