import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';

/** The toy module's one table: only toy.repository.ts reads or writes it. */
export const toyNotes = pgTable('toy_notes', {
  id: serial('id').primaryKey(),
  songId: integer('song_id').notNull(),
  text: text('text').notNull(),
  shouted: text('shouted'),
});
