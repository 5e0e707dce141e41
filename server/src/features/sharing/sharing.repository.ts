import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { shareLinks } from './sharing.schema.js';

export interface LiveShareLinkRow {
  songId: number;
  createdBy: number;
  expiresAt: Date;
}

/** A link as its sender lists it (the token still sealed). */
export interface OwnShareLinkRow {
  id: number;
  songId: number;
  sealedToken: string | null;
  description: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastVisitedAt: Date | null;
  visitCount: number;
}

const ownColumns = {
  id: shareLinks.id,
  songId: shareLinks.songId,
  sealedToken: shareLinks.sealedToken,
  description: shareLinks.description,
  createdAt: shareLinks.createdAt,
  expiresAt: shareLinks.expiresAt,
  lastVisitedAt: shareLinks.lastVisitedAt,
  visitCount: shareLinks.visitCount,
};

/** The only code of the sharing feature that touches the database. */
export class SharingRepository {
  constructor(private readonly db: Db) {}

  async create(values: {
    tokenHash: string;
    songId: number;
    createdBy: number;
    expiresAt: Date;
    sealedToken?: string | null;
    description?: string | null;
  }): Promise<OwnShareLinkRow> {
    const [row] = await this.db.insert(shareLinks).values(values).returning(ownColumns);
    if (!row) throw new Error('the share link was not written');
    return row;
  }

  /** The link with this token hash, unless it has expired; the visit is counted in the same statement. */
  async findLive(tokenHash: string, now: Date): Promise<LiveShareLinkRow | undefined> {
    const [row] = await this.db
      .update(shareLinks)
      .set({ visitCount: sql`${shareLinks.visitCount} + 1`, lastVisitedAt: now })
      .where(and(eq(shareLinks.tokenHash, tokenHash), gt(shareLinks.expiresAt, now)))
      .returning({ songId: shareLinks.songId, createdBy: shareLinks.createdBy, expiresAt: shareLinks.expiresAt });
    return row;
  }

  /** The sender's links that have not expired, newest first. */
  listOwn(userId: number, now: Date): Promise<OwnShareLinkRow[]> {
    return this.db
      .select(ownColumns)
      .from(shareLinks)
      .where(and(eq(shareLinks.createdBy, userId), gt(shareLinks.expiresAt, now)))
      .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  }

  /** Changes the sender's live link; undefined when they have none of that id. */
  async updateOwn(userId: number, id: number, changes: { description?: string | null; expiresAt?: Date }, now: Date): Promise<OwnShareLinkRow | undefined> {
    const where = and(eq(shareLinks.id, id), eq(shareLinks.createdBy, userId), gt(shareLinks.expiresAt, now));
    if (changes.description === undefined && changes.expiresAt === undefined) {
      const [row] = await this.db.select(ownColumns).from(shareLinks).where(where);
      return row;
    }
    const [row] = await this.db.update(shareLinks).set(changes).where(where).returning(ownColumns);
    return row;
  }

  async deleteOwn(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(shareLinks)
      .where(and(eq(shareLinks.id, id), eq(shareLinks.createdBy, userId)))
      .returning({ id: shareLinks.id });
    return rows.length > 0;
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.db.delete(shareLinks).where(lt(shareLinks.expiresAt, before));
  }
}
