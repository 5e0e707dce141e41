import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { shareLinks } from './sharing.schema.js';

export interface LiveShareLinkRow {
  songId: number;
  createdBy: number;
  expiresAt: Date;
}

/** The only code of the sharing feature that touches the database. */
export class SharingRepository {
  constructor(private readonly db: Db) {}

  async create(values: { tokenHash: string; songId: number; createdBy: number; expiresAt: Date }): Promise<void> {
    await this.db.insert(shareLinks).values(values);
  }

  /** The link with this token hash, unless it has expired. */
  async findLive(tokenHash: string, now: Date): Promise<LiveShareLinkRow | undefined> {
    const [row] = await this.db
      .select({ songId: shareLinks.songId, createdBy: shareLinks.createdBy, expiresAt: shareLinks.expiresAt })
      .from(shareLinks)
      .where(and(eq(shareLinks.tokenHash, tokenHash), gt(shareLinks.expiresAt, now)));
    return row;
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.db.delete(shareLinks).where(lt(shareLinks.expiresAt, before));
  }
}
