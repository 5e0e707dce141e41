// Tables of the platform job runner; only job-liveness.ts reads or writes them.
import { index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Processes that work jobs on PostgreSQL (platform/jobs/job-liveness.ts). Each holds a session
 * advisory lock on its id for as long as its connection lives; a row whose lock can be taken
 * belongs to a process that died.
 */
export const jobWorkers = pgTable('job_workers', {
  id: serial('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The pg-boss job each worker is running: a dead worker's are retried at once. */
export const jobClaims = pgTable(
  'job_claims',
  {
    jobId: uuid('job_id').primaryKey(),
    queue: text('queue').notNull(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => jobWorkers.id, { onDelete: 'cascade' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_claims_worker_idx').on(t.workerId)],
);
