// Tables of the lyrics module; only lyrics.repository.ts reads or writes them.
import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { keyOf, uuidKeyOf } from '../../platform/db/table-key.js';

/**
 * A song's lyrics (issue 11): one row per song that has any. `text` keeps `[Section]` headers;
 * `line_times` holds one entry per line (null where a line has no time) when the source timed
 * lines; `words` one entry per sung token when timed by word. `songs.transcript` mirrors
 * `text`, written by a trigger in the same transaction (migration 0014; the spec's calls read it there).
 */
export const lyrics = pgTable('lyrics', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => keyOf('songs'), { onDelete: 'cascade' }),
  text: text('text').notNull(),
  lineTimes: jsonb('line_times').$type<({ start: number; end: number | null } | null)[]>(),
  words: jsonb('words').$type<{ text: string; start: number; end: number }[]>(),
  source: text('source', { enum: ['embedded', 'sidecar', 'imported', 'lookup', 'transcribed', 'edited'] }).notNull(),
  language: text('language'),
  updatedBy: integer('updated_by').references(() => keyOf('users'), { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The transcription running for a song: one at a time. A second caller finds this row and
 * joins the task instead of starting another job; a finished task's row is taken over.
 */
export const lyricsTranscriptions = pgTable('lyrics_transcriptions', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => keyOf('songs'), { onDelete: 'cascade' }),
  taskId: uuid('task_id')
    .notNull()
    .references(() => uuidKeyOf('tasks'), { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Songs whose file was read for embedded lyrics (at ingest or by the one-time backfill). */
export const lyricsEmbeddedScans = pgTable('lyrics_embedded_scans', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => keyOf('songs'), { onDelete: 'cascade' }),
  found: text('found', { enum: ['none', 'plain', 'synced'] }).notNull(),
  scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
});
