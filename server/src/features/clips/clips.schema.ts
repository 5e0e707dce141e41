// Table of the clips module (Song2Clip); only clips.repository.ts reads or writes it.
import { bigint, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * Song2Clip renders. The render's progress and outcome live in its task (`task_id`); this row
 * keeps what the render needs (settings, media) and what it made (the video's key).
 */
export const clips = pgTable(
  'clips',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    /** Null once the song is deleted (the clip stays playable). */
    songId: integer('song_id').references(() => keyOf('songs'), { onDelete: 'set null' }),
    songTitle: text('song_title'),
    taskId: text('task_id'),
    /** The checked clip settings (common/clips.contract.ts), words included. */
    settings: jsonb('settings').notNull(),
    /** 'images' or 'video'. */
    mediaKind: text('media_kind').notNull(),
    /** Storage keys of the media, in the user's order. */
    mediaKeys: jsonb('media_keys').$type<string[]>().notNull(),
    format: text('format').notNull(),
    quality: text('quality').notNull(),
    aspectRatio: text('aspect_ratio').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Set once rendered and stored. */
    videoKey: text('video_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    durationSeconds: doublePrecision('duration_seconds'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('clips_owner_created_idx').on(t.ownerId, t.createdAt, t.id), uniqueIndex('clips_task_key').on(t.taskId)],
);
