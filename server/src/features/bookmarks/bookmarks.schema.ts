// Table of the bookmarks module; only bookmarks.repository.ts reads or writes it.
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/** Where a user stopped in a long song (an audiobook chapter, a DJ set): one per user and song. */
export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => keyOf('songs'), { onDelete: 'cascade' }),
    positionMs: integer('position_ms').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.songId] }), index('bookmarks_song_idx').on(t.songId)],
);
