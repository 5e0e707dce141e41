// Table of the platform mailer; only mail-deliveries.ts reads or writes it.
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mail jobs whose message went out: a job run again after a crash finds its mark and sends
 * nothing (platform/mail/mail-deliveries.ts). Rows outlive any retry of their job, then go.
 */
export const mailDeliveries = pgTable('mail_deliveries', {
  jobId: text('job_id').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});
