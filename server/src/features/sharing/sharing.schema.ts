// Table of the sharing module; only sharing.repository.ts reads or writes it.
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * A public link to one song, mailed by a user or made by a Subsonic app; a SHA-256 of its token
 * finds it, and the token itself is kept only sealed for its sender.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** What the sender wrote about it (Subsonic's share description). */
    description: text('description'),
    /** The token sealed for its sender (see ShareTokenBox), so their list of links can show each link again. */
    sealedToken: text('sealed_token'),
    visitCount: integer('visit_count').notNull().default(0),
    lastVisitedAt: timestamp('last_visited_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('share_links_token_hash_key').on(t.tokenHash),
    index('share_links_song_idx').on(t.songId),
    index('share_links_created_by_idx').on(t.createdBy),
    index('share_links_expires_idx').on(t.expiresAt),
  ],
);
