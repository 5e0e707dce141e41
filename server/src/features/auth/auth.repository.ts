import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { emailVerificationTokens, invitations, passwordResetTokens, users, type UserRole } from './auth.schema.js';
import { liveAt } from './sign-up.repository.js';

/** Any constant; taken by every account creation so the instance's first admin is decided once. */
const FIRST_ADMIN_LOCK = 7_243_029;

/** How stale an account's last-seen time may get before a request writes it again. */
export const LAST_SEEN_GRANULARITY_MS = 5 * 60_000;

export type UserRow = typeof users.$inferSelect;

/** What a new account is made of. */
export interface NewUser {
  userName: string;
  email: string;
  passwordHash: string | null;
  googleSubject?: string;
  emailVerifiedAt?: Date | null;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Inserts an account; while the instance has no admin it becomes the admin. Every creation
 * takes a transaction-scoped advisory lock first, so of two concurrent first sign-ups on
 * PostgreSQL the second sees the first's admin and is a user.
 */
async function insertUser(tx: Tx, values: NewUser): Promise<UserRow> {
  await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
  const role = sql`case when exists (select 1 from ${users} where ${users.role} = 'admin') then 'user' else 'admin' end`;
  const [row] = await tx
    .insert(users)
    .values({ ...values, role })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The only code of the auth feature that touches the database. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** The user names of those of `ids` that exist. */
  async userNames(ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.db.select({ id: users.id, userName: users.userName }).from(users).where(inArray(users.id, unique));
    return new Map(rows.map((row) => [row.id, row.userName]));
  }

  /** The first account made: the instance's owner. */
  async oldest(): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).orderBy(asc(users.id)).limit(1);
    return row;
  }

  async findByUserName(userName: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.userName}) = lower(${userName})`);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row;
  }

  async findByGoogleSubject(subject: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.googleSubject, subject));
    return row;
  }

  /** Which of the two unique fields another user already holds. */
  async takenBy(fields: { userName?: string; email?: string }, exceptUserId?: number): Promise<{ userName: boolean; email: boolean }> {
    const conditions = [];
    if (fields.userName !== undefined) conditions.push(sql`lower(${users.userName}) = lower(${fields.userName})`);
    if (fields.email !== undefined) conditions.push(sql`lower(${users.email}) = lower(${fields.email})`);
    if (conditions.length === 0) return { userName: false, email: false };
    const rows = await this.db
      .select({ id: users.id, userName: users.userName, email: users.email })
      .from(users)
      .where(or(...conditions));
    const others = rows.filter((row) => row.id !== exceptUserId);
    return {
      userName: fields.userName !== undefined && others.some((row) => row.userName.toLowerCase() === fields.userName?.toLowerCase()),
      email: fields.email !== undefined && others.some((row) => row.email.toLowerCase() === fields.email?.toLowerCase()),
    };
  }

  /**
   * Creates an account; while the instance has no admin it becomes the admin. Creations take a
   * transaction-scoped advisory lock first, so of two concurrent first sign-ups on PostgreSQL
   * the second sees the first's admin and is a user.
   */
  async create(values: NewUser): Promise<UserRow> {
    return this.db.transaction((tx) => insertUser(tx, values));
  }

  /**
   * Creates the instance's first account (its admin) while it has none; undefined once any
   * account exists. Under the same lock as every creation, so of first sign-ups at once exactly
   * one is made, whatever SIGNUP says.
   */
  async createFirst(values: NewUser): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
      const [any] = await tx.select({ id: users.id }).from(users).limit(1);
      return any ? undefined : insertUser(tx, values);
    });
  }

  /** Whether any account exists. */
  async hasAccounts(): Promise<boolean> {
    const [any] = await this.db.select({ id: users.id }).from(users).limit(1);
    return any !== undefined;
  }

  /**
   * Creates an account with an invitation (SIGNUP=invite), claiming the invitation in the same
   * transaction: of two sign-ups with one link, one wins; a sign-up that fails (a name taken)
   * leaves the invitation unused. The invitation is the one of `token` (a link's hash) when it
   * was mailed to the new account's address, or, for single sign-on, any live one mailed to
   * `email`. Undefined when there is no such live invitation.
   */
  async createInvited(values: NewUser, invitation: { tokenHash: string } | { email: string }): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      const now = new Date();
      // A link works only for the address it was mailed to (anyone may forward a link).
      const which =
        'tokenHash' in invitation
          ? and(eq(invitations.tokenHash, invitation.tokenHash), sql`lower(${invitations.email}) = lower(${values.email})`)
          : eq(
              invitations.id,
              sql`(select ${invitations.id} from ${invitations} where lower(${invitations.email}) = lower(${invitation.email}) and ${liveAt(now)} order by ${invitations.id} limit 1)`,
            );
      const [claimed] = await tx
        .update(invitations)
        .set({ usedAt: now })
        .where(and(which, liveAt(now)))
        .returning({ id: invitations.id, email: invitations.email });
      if (!claimed) return undefined;
      // The link reached this address: an account made for it starts verified.
      const sameAddress = claimed.email.toLowerCase() === values.email.toLowerCase();
      const user = await insertUser(tx, { ...values, emailVerifiedAt: values.emailVerifiedAt ?? (sameAddress ? now : null) });
      await tx.update(invitations).set({ usedBy: user.id }).where(eq(invitations.id, claimed.id));
      return user;
    });
  }

  /**
   * Sets an account's role. Demoting the last admin (the only account with role admin) is
   * refused in the same statement: 'last-admin'. Undefined when the account does not exist.
   */
  async setRole(id: number, role: UserRole): Promise<UserRow | 'last-admin' | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
      const [row] = await tx
        .update(users)
        .set({ role, updatedAt: new Date() })
        .where(
          and(eq(users.id, id), role === 'admin' ? undefined : sql`exists (select 1 from ${users} other where other.role = 'admin' and other.id <> ${id})`),
        )
        .returning();
      if (row) return row;
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
      return exists ? 'last-admin' : undefined;
    });
  }

  /**
   * Disables (sessions end: the token version is bumped, which the trigger announces to open
   * event streams) or enables an account. Disabling the last enabled admin is refused:
   * 'last-admin'. Undefined when the account does not exist.
   */
  async setDisabled(id: number, disabled: boolean): Promise<UserRow | 'last-admin' | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
      const [row] = await tx
        .update(users)
        .set(
          disabled
            ? { disabledAt: sql`coalesce(${users.disabledAt}, now())`, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() }
            : { disabledAt: null, updatedAt: new Date() },
        )
        .where(
          and(
            eq(users.id, id),
            disabled
              ? sql`(${users.role} <> 'admin' or exists (select 1 from ${users} other where other.role = 'admin' and other.disabled_at is null and other.id <> ${id}))`
              : undefined,
          ),
        )
        .returning();
      if (row) return row;
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
      return exists ? 'last-admin' : undefined;
    });
  }

  /** Whether deleting the account now would leave no enabled admin. */
  async isLastAdmin(id: number): Promise<boolean> {
    const [self] = await this.db.select({ role: users.role, disabledAt: users.disabledAt }).from(users).where(eq(users.id, id));
    if (self?.role !== 'admin' || self.disabledAt) return false;
    const others = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.disabledAt), ne(users.id, id)))
      .limit(1);
    return others.length === 0;
  }

  /**
   * Deletes an account (its tokens, keys and app passwords go with it by foreign key), refused
   * for the last admin: 'last-admin'. Undefined when it does not exist.
   */
  async deleteAccount(id: number): Promise<'deleted' | 'last-admin' | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
      const deleted = await tx
        .delete(users)
        .where(and(eq(users.id, id), sql`(${users.role} <> 'admin' or exists (select 1 from ${users} other where other.role = 'admin' and other.id <> ${id}))`))
        .returning({ id: users.id });
      if (deleted.length > 0) return 'deleted';
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
      return exists ? 'last-admin' : undefined;
    });
  }

  /** Records that the account was seen now, when its last-seen time is older than the granularity. */
  async touchLastSeen(id: number): Promise<void> {
    await this.touchLastSeenMany([id]);
  }

  /** touchLastSeen for several accounts in one statement. */
  async touchLastSeenMany(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const staleBefore = new Date(Date.now() - LAST_SEEN_GRANULARITY_MS);
    await this.db
      .update(users)
      .set({ lastSeenAt: new Date() })
      .where(and(inArray(users.id, [...ids]), or(isNull(users.lastSeenAt), lt(users.lastSeenAt, staleBefore))));
  }

  /** Every account, oldest first (the admin page's list). */
  async listAll(): Promise<UserRow[]> {
    return this.db.select().from(users).orderBy(asc(users.id));
  }

  /** Changes the user name and/or e-mail; a different e-mail is unverified until proven again. */
  async updateProfile(id: number, values: { userName?: string; email?: string }): Promise<UserRow | undefined> {
    const emailVerifiedAt =
      values.email === undefined ? undefined : sql`case when lower(${users.email}) = lower(${values.email}) then ${users.emailVerifiedAt} else null end`;
    const [row] = await this.db
      .update(users)
      .set({ ...values, ...(emailVerifiedAt ? { emailVerifiedAt } : {}), updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /**
   * Attaches a Google subject to the account holding `email`, only while that account has no
   * subject yet and its e-mail is verified (checked in the same statement, so a concurrent
   * e-mail change cannot slip in between). Undefined when it no longer qualifies.
   */
  async linkGoogleSubject(id: number, subject: string, email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ googleSubject: subject, updatedAt: new Date() })
      .where(and(eq(users.id, id), isNull(users.googleSubject), isNotNull(users.emailVerifiedAt), sql`lower(${users.email}) = lower(${email})`))
      .returning();
    return row;
  }

  async storeVerificationToken(userId: number, email: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(emailVerificationTokens).values({ userId, email, tokenHash, expiresAt });
  }

  /**
   * Marks a live verification token used and the account's e-mail verified, in one
   * transaction. The token only counts while the account still has the address it was mailed
   * to. Returns the user id, or undefined when the token is unknown, used, expired or stale.
   */
  async consumeVerificationToken(tokenHash: string): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [claimed] = await tx
        .update(emailVerificationTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(emailVerificationTokens.tokenHash, tokenHash),
            isNull(emailVerificationTokens.usedAt),
            gt(emailVerificationTokens.expiresAt, now),
            sql`exists (select 1 from ${users} where ${users.id} = ${emailVerificationTokens.userId} and lower(${users.email}) = lower(${emailVerificationTokens.email}))`,
          ),
        )
        .returning({ userId: emailVerificationTokens.userId });
      if (!claimed) return undefined;
      await tx
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: now })
        .where(eq(users.id, claimed.userId));
      await tx
        .update(emailVerificationTokens)
        .set({ usedAt: now })
        .where(and(eq(emailVerificationTokens.userId, claimed.userId), isNull(emailVerificationTokens.usedAt)));
      return claimed.userId;
    });
  }

  async pruneVerificationTokens(before: Date): Promise<void> {
    await this.db.delete(emailVerificationTokens).where(lt(emailVerificationTokens.expiresAt, before));
  }

  async storeResetToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });
  }

  /** Whether a reset token is live for this e-mail's account, without using it up. */
  async isLiveResetToken(tokenHash: string, email: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: passwordResetTokens.id })
      .from(passwordResetTokens)
      .where(this.liveResetToken(tokenHash, email, new Date()));
    return rows.length > 0;
  }

  /**
   * Marks a live token used and sets the new password in one transaction, bumping the token
   * version so every earlier session token stops working. The link came to the account's
   * address, so the address counts as verified from now on. Returns false when the token is
   * unknown, used, expired or not this e-mail's.
   */
  /** The user whose password the token reset; undefined when the token is not live. */
  async consumeResetToken(tokenHash: string, email: string, passwordHash: string): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(this.liveResetToken(tokenHash, email, new Date()))
        .returning({ userId: passwordResetTokens.userId });
      if (!claimed) return undefined;
      await tx
        .update(users)
        .set({
          passwordHash,
          tokenVersion: sql`${users.tokenVersion} + 1`,
          emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
          updatedAt: new Date(),
        })
        .where(eq(users.id, claimed.userId));
      // Any other link still in the user's mailbox dies with this reset.
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
      return claimed.userId;
    });
  }

  /**
   * Sets a new password hash and bumps the token version (every earlier session token stops
   * working), only while the account still has `currentHash`: of two changes made with the
   * same current password, one wins. Undefined when the hash has changed meanwhile.
   */
  async changePassword(id: number, currentHash: string, passwordHash: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(and(eq(users.id, id), eq(users.passwordHash, currentHash)))
      .returning();
    return row;
  }

  /** Sets the account's password (the operator's `user reset-password`): its sessions end, its open reset links die. */
  async setPassword(id: number, passwordHash: string): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      if (row)
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResetTokens.userId, id), isNull(passwordResetTokens.usedAt)));
      return row;
    });
  }

  async pruneResetTokens(before: Date): Promise<void> {
    await this.db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, before));
  }

  private liveResetToken(tokenHash: string, email: string, now: Date) {
    return and(
      eq(passwordResetTokens.tokenHash, tokenHash),
      isNull(passwordResetTokens.usedAt),
      gt(passwordResetTokens.expiresAt, now),
      sql`${passwordResetTokens.userId} = (select ${users.id} from ${users} where lower(${users.email}) = lower(${email}))`,
    );
  }
}
