import { and, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rateLimitCounters } from './rate-limit.schema.js';
import { TooManyRequestsError } from '../errors/app-errors.js';

export interface RateLimitRule {
  /** Keys sharing a prefix share a limit, e.g. 'signin-ip'. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** `{seconds}` in it becomes the seconds left in the window (also the Retry-After). */
  message: string;
}

/**
 * Fixed-window counters in the database, so every Encore process behind a load balancer sees
 * the same counts and a restart does not reset them.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Counts one hit and throws 429 once the window's limit is passed. */
  async hit(rule: RateLimitRule, subject: string): Promise<void> {
    const count = await this.increment(rule, subject);
    if (count > rule.limit) throw this.refusal(rule);
  }

  /** Throws 429 when the limit is already reached, without counting. */
  async assertBelow(rule: RateLimitRule, subject: string): Promise<void> {
    const rows = await this.db
      .select({ count: rateLimitCounters.count })
      .from(rateLimitCounters)
      .where(sql`${rateLimitCounters.key} = ${this.key(rule, subject)} and ${rateLimitCounters.windowStart} = ${this.windowStart(rule)}`);
    if ((rows[0]?.count ?? 0) >= rule.limit) throw this.refusal(rule);
  }

  async increment(rule: RateLimitRule, subject: string): Promise<number> {
    const [row] = await this.db
      .insert(rateLimitCounters)
      .values({ key: this.key(rule, subject), windowStart: this.windowStart(rule), count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitCounters.key, rateLimitCounters.windowStart],
        set: { count: sql`${rateLimitCounters.count} + 1` },
      })
      .returning({ count: rateLimitCounters.count });
    return row?.count ?? 1;
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.db.delete(rateLimitCounters).where(sql`${rateLimitCounters.key} = ${this.key(rule, subject)}`);
  }

  /** Drops windows that ended long ago. */
  async prune(olderThan: Date): Promise<void> {
    await this.db.delete(rateLimitCounters).where(and(lt(rateLimitCounters.windowStart, olderThan)));
  }

  private key(rule: RateLimitRule, subject: string): string {
    return `${rule.name}:${subject.toLowerCase()}`;
  }

  private windowStart(rule: RateLimitRule): Date {
    const ms = rule.windowSeconds * 1000;
    return new Date(Math.floor(Date.now() / ms) * ms);
  }

  private refusal(rule: RateLimitRule): TooManyRequestsError {
    const seconds = Math.max(1, Math.ceil(this.secondsLeft(rule)));
    return new TooManyRequestsError(rule.message.replace('{seconds}', String(seconds)), seconds);
  }

  private secondsLeft(rule: RateLimitRule): number {
    const ms = rule.windowSeconds * 1000;
    return (ms - (Date.now() % ms)) / 1000;
  }
}
