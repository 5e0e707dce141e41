// Table of the platform task store; only task.store.ts reads or writes it.
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { keyOf } from '../db/table-key.js';

/**
 * Work a user waits for (a transcription, a render): its job reports progress here, and every
 * process sees the same row. States: queued, running, done, failed, cancelled.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    phase: text('phase'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('tasks_owner_idx').on(t.ownerId, t.updatedAt)],
);
