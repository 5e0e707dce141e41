import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { users } from '../auth/auth.schema.js';
import { shareLinks } from './sharing.schema.js';

export interface LiveShareLink {
  songId: number;
  sharedBy: string;
  expiresAt: Date;
}

/** The only code of the sharing feature that touches the database. */
export class SharingRepository {
  constructor(private readonly db: Db) {}

  async create(values: { tokenHash: string; songId: number; createdBy: number; expiresAt: Date }): Promise<void> {
    await this.db.insert(shareLinks).values(values);
  }

  /** The link with this token hash, unless it has expired. */
  async findLive(tokenHash: string, now: Date): Promise<LiveShareLink | undefined> {
    const [row] = await this.db
      .select({ songId: shareLinks.songId, sharedBy: users.userName, expiresAt: shareLinks.expiresAt })
      .from(shareLinks)
      .innerJoin(users, eq(users.id, shareLinks.createdBy))
      .where(and(eq(shareLinks.tokenHash, tokenHash), gt(shareLinks.expiresAt, now)));
    return row;
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.db.delete(shareLinks).where(lt(shareLinks.expiresAt, before));
  }
}
