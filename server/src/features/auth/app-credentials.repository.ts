import { and, asc, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { apiKeys, appPasswords, users } from './auth.schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type AppPasswordRow = typeof appPasswords.$inferSelect;
export type AppCredentialKind = 'api-key' | 'app-password';

/** What the list of a user's credentials shows: never the secret. */
export interface AppCredentialSummary {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A "last used" is written at most this often per credential: clients send credentials with every request. */
const LAST_USED_RESOLUTION = sql`interval '1 minute'`;

/** The only code that touches the api_keys and app_passwords tables. */
export class AppCredentialsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds a credential while the user has fewer than `max` of that kind. The user's row is locked
   * for the count and the insert, so concurrent creates cannot pass the cap together. Undefined
   * when the cap is reached; null when the user no longer exists.
   */
  async insertWithin(
    kind: AppCredentialKind,
    values: { userId: number; name: string; secret: string },
    max: number,
  ): Promise<AppCredentialSummary | undefined | null> {
    return this.db.transaction(async (tx) => {
      const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
      if (!owner) return null;
      const table = kind === 'api-key' ? apiKeys : appPasswords;
      const [held] = await tx.select({ n: count() }).from(table).where(eq(table.userId, values.userId));
      if ((held?.n ?? 0) >= max) return undefined;
      const [row] =
        kind === 'api-key'
          ? await tx.insert(apiKeys).values({ userId: values.userId, name: values.name, keyHash: values.secret }).returning()
          : await tx.insert(appPasswords).values({ userId: values.userId, name: values.name, ciphertext: values.secret }).returning();
      if (!row) throw new Error('insert returned no row');
      return summary(row);
    });
  }

  async list(kind: AppCredentialKind, userId: number): Promise<AppCredentialSummary[]> {
    const table = kind === 'api-key' ? apiKeys : appPasswords;
    const rows = await this.db
      .select({ id: table.id, name: table.name, createdAt: table.createdAt, lastUsedAt: table.lastUsedAt })
      .from(table)
      .where(eq(table.userId, userId))
      .orderBy(asc(table.createdAt), asc(table.id));
    return rows;
  }

  /** Whether the user had that credential (another user's id deletes nothing). */
  async delete(kind: AppCredentialKind, userId: number, id: number): Promise<boolean> {
    const table = kind === 'api-key' ? apiKeys : appPasswords;
    const rows = await this.db
      .delete(table)
      .where(and(eq(table.id, id), eq(table.userId, userId)))
      .returning({ id: table.id });
    return rows.length > 0;
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
    return row;
  }

  async appPasswordsOf(userId: number): Promise<AppPasswordRow[]> {
    return this.db.select().from(appPasswords).where(eq(appPasswords.userId, userId)).orderBy(asc(appPasswords.id));
  }

  async touch(kind: AppCredentialKind, id: number, now = new Date()): Promise<void> {
    await this.touchMany(kind, [id], now);
  }

  /** "Used now" for several credentials of a kind in one statement (those written within the resolution are left). */
  async touchMany(kind: AppCredentialKind, ids: readonly number[], now = new Date()): Promise<void> {
    if (ids.length === 0) return;
    const table = kind === 'api-key' ? apiKeys : appPasswords;
    await this.db
      .update(table)
      .set({ lastUsedAt: now })
      .where(
        and(inArray(table.id, [...ids]), or(isNull(table.lastUsedAt), lt(table.lastUsedAt, sql`${now.toISOString()}::timestamptz - ${LAST_USED_RESOLUTION}`))),
      );
  }
}

function summary(row: ApiKeyRow | AppPasswordRow): AppCredentialSummary {
  return { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}
