import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../src/platform/db/pg-errors.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { songLikes } from '../../src/features/library/library.schema.js';
import { engines, freshPostgresDatabase } from '../support/test-app.js';

/** What a failed statement threw, as the driver and drizzle hand it over. */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the statement was expected to fail');
}

describe.each(engines)('PostgreSQL errors on %s', (engine) => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const postgres = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
    drop = postgres?.drop;
    database = await openDatabase({ url: postgres?.url, pgliteDir: undefined });
    await database.db.insert(users).values({ userName: 'Ada', email: 'ada@example.org' });
  });

  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('recognises a unique violation, and which index refused the row', async () => {
    const error = await failure(() => database.db.insert(users).values({ userName: 'ADA', email: 'other@example.org' }));
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'users_user_name_lower_key')).toBe(true);
    expect(isUniqueViolation(error, 'users_email_lower_key')).toBe(false);
    expect(isForeignKeyViolation(error)).toBe(false);
  });

  it('recognises a foreign key violation', async () => {
    const error = await failure(() => database.db.insert(songLikes).values({ userId: 1, songId: 424242 }));
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(isUniqueViolation(error)).toBe(false);
  });

  it('finds the code inside a wrapping error, and nothing in other errors', async () => {
    const error = await failure(() => database.db.insert(users).values({ userName: 'Bob', email: 'ADA@example.org' }));
    expect(isUniqueViolation(new Error('the write failed', { cause: error }), 'users_email_lower_key')).toBe(true);
    expect(isUniqueViolation(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
