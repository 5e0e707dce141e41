import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { passwordResetTokens, users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;

/** The only code of the auth feature that touches the database. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async findByUserName(userName: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.userName}) = lower(${userName})`);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
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

  async create(values: { userName: string; email: string; passwordHash: string | null; googleSubject?: string }): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<Pick<UserRow, 'userName' | 'email' | 'googleSubject'>>): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  async storeResetToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });
  }

  /**
   * Marks a live token used and sets the new password in one transaction, bumping the token
   * version so every earlier session token stops working. Returns false when the token is
   * unknown, used, expired or not this e-mail's.
   */
  async consumeResetToken(tokenHash: string, email: string, passwordHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date()),
            sql`${passwordResetTokens.userId} = (select ${users.id} from ${users} where lower(${users.email}) = lower(${email}))`,
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (!claimed) return false;
      await tx
        .update(users)
        .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, claimed.userId));
      // Any other link still in the user's mailbox dies with this reset.
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
      return true;
    });
  }

  async pruneResetTokens(before: Date): Promise<void> {
    await this.db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, before));
  }
}
