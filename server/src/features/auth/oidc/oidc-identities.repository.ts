import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database.js';
import type { UserRow } from '../auth.repository.js';
import { oidcIdentities, users } from '../auth.schema.js';

/** The auth module's single sign-on identities: an issuer's subject and the account it signs into. */
export class OidcIdentitiesRepository {
  constructor(private readonly db: Db) {}

  /** The account the subject is linked to, its last sign-in recorded. */
  async signInUser(issuer: string, subject: string): Promise<UserRow | undefined> {
    const [linked] = await this.db
      .update(oidcIdentities)
      .set({ lastSignInAt: new Date() })
      .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)))
      .returning({ userId: oidcIdentities.userId });
    if (!linked) return undefined;
    const [user] = await this.db.select().from(users).where(eq(users.id, linked.userId));
    return user;
  }

  /** Whether the account already has a subject at this issuer (another one than the caller's, since that one was not found). */
  async hasIdentityAt(userId: number, issuer: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: oidcIdentities.id })
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Links the subject to an existing account, only while that account still has `email` and
   * it is verified (checked in the same statement, as Google linking does). False when the
   * account no longer qualifies; a subject linked meanwhile is a unique violation.
   */
  async link(userId: number, issuer: string, subject: string, email: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [owner] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNotNull(users.emailVerifiedAt), sql`lower(${users.email}) = lower(${email})`))
        .for('update');
      if (!owner) return false;
      await tx.insert(oidcIdentities).values({ userId, issuer, subject });
      return true;
    });
  }

  /** Links the subject to an account just created for it. */
  async attach(userId: number, issuer: string, subject: string): Promise<void> {
    await this.db.insert(oidcIdentities).values({ userId, issuer, subject });
  }
}
