import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accountsPort } from '../../src/features/auth/auth.port.js';
import { openMigrationSteps } from '../support/migration-steps.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(engines)('roles on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const signUp = (userName: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'correct horse 1' } });
  const session = async (userName: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: 'correct horse 1' } })).json<{ token: string }>().token;
  const profile = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } })).json<{ role: string }>();
  const idOf = async (userName: string) => (await t.app.encore.modules.port(accountsPort).account(userName))?.id ?? -1;

  it('makes the first account admin and the next ones users; the profile carries the role', async () => {
    expect((await signUp('first')).statusCode).toBe(201);
    expect((await signUp('second')).statusCode).toBe(201);
    expect(await profile(await session('first'))).toMatchObject({ role: 'admin' });
    expect(await profile(await session('second'))).toMatchObject({ role: 'user' });
  });

  it('answers isAdmin and sets roles through the accounts port, never demoting the last admin', async () => {
    const accounts = t.app.encore.modules.port(accountsPort);
    const first = await idOf('first');
    const second = await idOf('second');
    expect(await accounts.isAdmin(first)).toBe(true);
    expect(await accounts.isAdmin(second)).toBe(false);
    expect(await accounts.isAdmin(999_999)).toBe(false);

    await expect(accounts.setRole(first, 'user')).rejects.toThrow('The last admin cannot be demoted or deleted.');
    await accounts.setRole(second, 'admin');
    expect(await accounts.isAdmin(second)).toBe(true);
    // With two admins, one may step down; then the other is the last again.
    await accounts.setRole(first, 'user');
    expect(await accounts.isAdmin(first)).toBe(false);
    await expect(accounts.setRole(second, 'user')).rejects.toThrow('The last admin cannot be demoted or deleted.');
    await expect(accounts.setRole(999_999, 'admin')).rejects.toThrow('User not found.');
    // A role of a live session shows at its next request.
    expect(await profile(await session('first'))).toMatchObject({ role: 'user' });
    await accounts.setRole(first, 'admin');
  });

  it('refuses a role outside admin and user at the database', async () => {
    await expect(t.app.encore.platform.database.db.execute(sql`update users set role = 'owner' where user_name = 'first'`)).rejects.toThrow();
  });
});

describe.runIf(engines.includes('postgres'))('the first sign-up race on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres');
  });
  afterAll(async () => t?.close());

  it('gives exactly one admin when eight first sign-ups arrive together', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `racer${i}`);
    const responses = await Promise.all(
      names.map((userName) =>
        t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'correct horse 1' } }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(names.map(() => 201));
    // Both drivers answer execute() with { rows }.
    const result = (await t.app.encore.platform.database.db.execute(
      sql`select role, count(*)::int as n from users group by role order by role`,
    )) as unknown as {
      rows: { role: string; n: number }[];
    };
    expect(result.rows).toEqual([
      { role: 'admin', n: 1 },
      { role: 'user', n: 7 },
    ]);
  });
});

describe('the roles migration', () => {
  it('makes the oldest account of an existing instance admin', async () => {
    const steps = await openMigrationSteps();
    try {
      await steps.migrateUpTo('0019_listening');
      await steps.client.exec(`insert into users (user_name, email) values ('owner', 'owner@example.com'), ('guest', 'guest@example.com')`);
      await steps.migrateToNewest();
      const result = await steps.client.query<{ user_name: string; role: string }>('select user_name, role from users order by id');
      expect(result.rows).toEqual([
        { user_name: 'owner', role: 'admin' },
        { user_name: 'guest', role: 'user' },
      ]);
    } finally {
      await steps.close();
    }
  });
});
