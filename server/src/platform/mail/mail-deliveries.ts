import { eq, lt } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { mailDeliveries } from './mail.schema.js';

/** A mark outlives every retry and re-run of its job by far; older ones are removed. */
const KEEP_MARKS_MS = 30 * 24 * 3600_000;

/** Which deliveries went out (mail_deliveries): the sent mark of each mail job. */
export class MailDeliveries {
  constructor(private readonly db: Db) {}

  async isSent(id: string): Promise<boolean> {
    const [row] = await this.db.select({ jobId: mailDeliveries.jobId }).from(mailDeliveries).where(eq(mailDeliveries.jobId, id));
    return row !== undefined;
  }

  async markSent(id: string, now = new Date()): Promise<void> {
    await this.db.insert(mailDeliveries).values({ jobId: id, sentAt: now }).onConflictDoNothing();
    await this.db.delete(mailDeliveries).where(lt(mailDeliveries.sentAt, new Date(now.getTime() - KEEP_MARKS_MS)));
  }
}
