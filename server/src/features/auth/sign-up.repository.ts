import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { instanceSettings, invitations, users } from './auth.schema.js';

export type InvitationRow = typeof invitations.$inferSelect;

/** An invitation with the names of who sent and who used it. */
export interface InvitationListing extends InvitationRow {
  invitedByName: string | null;
  usedByName: string | null;
}

const SIGN_UP_KEY = 'signup';

/** The sign-up setting and the invitations: the only code that touches their tables. */
export class SignUpRepository {
  constructor(private readonly db: Db) {}

  async storedMode(): Promise<string | undefined> {
    const [row] = await this.db.select({ value: instanceSettings.value }).from(instanceSettings).where(eq(instanceSettings.key, SIGN_UP_KEY));
    return row?.value;
  }

  async storeMode(mode: string): Promise<void> {
    await this.db
      .insert(instanceSettings)
      .values({ key: SIGN_UP_KEY, value: mode })
      .onConflictDoUpdate({ target: instanceSettings.key, set: { value: mode, updatedAt: new Date() } });
  }

  async createInvitation(values: { email: string; tokenHash: string; invitedBy: number; expiresAt: Date }): Promise<InvitationRow> {
    const [row] = await this.db.insert(invitations).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** The newest first; those used, revoked or expired more than `keepSince` ago are left out. */
  async listInvitations(keepSince: Date): Promise<InvitationListing[]> {
    const inviter = sql<string | null>`(select ${users.userName} from ${users} where ${users.id} = ${invitations.invitedBy})`;
    const user = sql<string | null>`(select ${users.userName} from ${users} where ${users.id} = ${invitations.usedBy})`;
    const rows = await this.db
      .select({ invitation: invitations, invitedByName: inviter, usedByName: user })
      .from(invitations)
      .where(gt(sql`coalesce(${invitations.usedAt}, ${invitations.revokedAt}, ${invitations.expiresAt})`, keepSince))
      .orderBy(desc(invitations.id))
      .limit(500);
    return rows.map((row) => ({ ...row.invitation, invitedByName: row.invitedByName, usedByName: row.usedByName }));
  }

  /** Revokes a live invitation; false when there is none of that id still live. */
  async revokeInvitation(id: number): Promise<boolean> {
    const rows = await this.db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.id, id), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    return rows.length > 0;
  }

  /** The live (unused, unrevoked, unexpired) invitation of this token hash. */
  async liveInvitation(tokenHash: string, now = new Date()): Promise<InvitationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(invitations)
      .where(and(eq(invitations.tokenHash, tokenHash), liveAt(now)));
    return row;
  }

  /** Forgets invitations that ended (used, revoked or expired) before `before`. */
  async prune(before: Date): Promise<void> {
    await this.db.delete(invitations).where(or(lt(invitations.usedAt, before), lt(invitations.revokedAt, before), lt(invitations.expiresAt, before)));
  }
}

/** An invitation that still opens sign-up at `now`. */
export function liveAt(now: Date) {
  return and(isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now));
}
