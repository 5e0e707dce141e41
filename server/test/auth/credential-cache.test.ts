import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { AppCredentialsRepository } from '../../src/features/auth/app-credentials.repository.js';
import { apiKeys } from '../../src/features/auth/auth.schema.js';
import { AuthRepository } from '../../src/features/auth/auth.repository.js';
import { UsageMarks, type UsageKind } from '../../src/features/auth/usage-marks.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What a /rest call answered: 'ok' or the Subsonic error code. */
async function ping(app: FastifyInstance, credentials: string): Promise<'ok' | number> {
  const response = await app.inject({ url: `/rest/ping?v=1.16.1&c=test&f=json&${credentials}` });
  const body = response.json<{ 'subsonic-response': { status: string; error?: { code: number } } }>()['subsonic-response'];
  return body.status === 'ok' ? 'ok' : (body.error?.code ?? -1);
}

/** Every way an app or the web app proves who it is, for one account. */
interface Proofs {
  userId: number;
  token: string;
  apiKey: { id: number; query: string };
  appPassword: { id: number; plain: string; token: string };
}

describe.each(engines)('verified credentials cost a lookup, and are forgotten at once (%s)', (engine) => {
  let t: TestApp;
  let admin: string;
  let serial = 0;

  beforeAll(async () => {
    t = await startTestApp(engine, { SIGNIN_LIMIT_PER_USER: '3' });
    admin = await signUp('root');
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  async function signUp(userName: string, password = 'account password 1'): Promise<string> {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password } });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password } });
    expect(response.statusCode).toBe(200);
    return response.json<{ token: string }>().token;
  }

  /** A new account with an API key and an app password, each used once (so cached), and its session used once. */
  async function proofs(): Promise<Proofs & { userName: string }> {
    const userName = `listener${(serial += 1)}`;
    const token = await signUp(userName);
    const key = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Desktop' } })).json<{
      id: number;
      key: string;
    }>();
    const password = (await t.app.inject({ method: 'POST', url: '/api/auth/app-passwords', headers: bearer(token), payload: { name: 'Phone' } })).json<{
      id: number;
      password: string;
    }>();
    // Twice: the first use of the process may come before it listens for revocations (then nothing is cached).
    for (let i = 0; i < 2; i += 1) expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(token) })).statusCode).toBe(200);
    const accounts = (await t.app.inject({ url: '/api/admin/users', headers: bearer(admin) })).json<{ users: { id: number; userName: string }[] }>();
    const userId = accounts.users.find((user) => user.userName === userName)?.id ?? 0;
    const salt = 'f00d';
    const result = {
      userName,
      userId,
      token,
      apiKey: { id: key.id, query: `apiKey=${encodeURIComponent(key.key)}` },
      appPassword: { id: password.id, plain: `u=${userName}&p=${password.password}`, token: `u=${userName}&t=${md5(password.password + salt)}&s=${salt}` },
    };
    for (let i = 0; i < 2; i += 1) {
      for (const query of [result.apiKey.query, result.appPassword.plain, result.appPassword.token]) expect(await ping(t.app, query)).toBe('ok');
    }
    return result;
  }

  it('answers credentials it verified before without a query, whatever the salt, and keeps refusing wrong ones', async () => {
    const account = await proofs();
    const findApiKey = vi.spyOn(AppCredentialsRepository.prototype, 'findApiKey');
    const appPasswordsOf = vi.spyOn(AppCredentialsRepository.prototype, 'appPasswordsOf');
    const findById = vi.spyOn(AuthRepository.prototype, 'findById');
    const findByUserName = vi.spyOn(AuthRepository.prototype, 'findByUserName');
    const password = /p=([^&]+)/.exec(account.appPassword.plain)?.[1] ?? '';
    for (let i = 0; i < 3; i += 1) {
      expect(await ping(t.app, account.apiKey.query)).toBe('ok');
      expect(await ping(t.app, account.appPassword.plain)).toBe('ok');
      expect(await ping(t.app, `u=${account.userName}&p=enc:${Buffer.from(password).toString('hex')}`)).toBe('ok');
      const salt = `s${i}`;
      expect(await ping(t.app, `u=${account.userName}&t=${md5(password + salt)}&s=${salt}`)).toBe('ok');
      expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode).toBe(200);
    }
    expect(findApiKey).not.toHaveBeenCalled();
    expect(appPasswordsOf).not.toHaveBeenCalled();
    expect(findByUserName).not.toHaveBeenCalled();
    // The profile route reads the account itself; authentication did not.
    expect(findById.mock.calls.length).toBeLessThanOrEqual(3);
    // Wrong ones still go the full way, and are refused.
    expect(await ping(t.app, `u=${account.userName}&p=wrong-wron-wron-wron`)).toBe(40);
    expect(await ping(t.app, `u=${account.userName}&t=${md5('nope')}&s=x`)).toBe(40);
    expect(await ping(t.app, 'apiKey=encore_not-a-key')).toBe(44);
  });

  it('refuses an app password on the very next call after it is revoked', async () => {
    const account = await proofs();
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/auth/app-passwords/${account.appPassword.id}`, headers: bearer(account.token) });
    expect(revoked.statusCode).toBe(204);
    expect(await ping(t.app, account.appPassword.plain)).toBe(40);
    expect(await ping(t.app, account.appPassword.token)).toBe(40);
    expect(await ping(t.app, account.apiKey.query)).toBe('ok');
  });

  it('refuses an API key on the very next call after it is revoked', async () => {
    const account = await proofs();
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/auth/api-keys/${account.apiKey.id}`, headers: bearer(account.token) });
    expect(revoked.statusCode).toBe(204);
    expect(await ping(t.app, account.apiKey.query)).toBe(44);
    expect(await ping(t.app, account.appPassword.plain)).toBe('ok');
  });

  it('refuses everything of a disabled account on the very next call', async () => {
    const account = await proofs();
    const disabled = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${account.userId}/disabled`,
      headers: bearer(admin),
      payload: { disabled: true },
    });
    expect(disabled.statusCode).toBe(200);
    expect(await ping(t.app, account.apiKey.query)).toBe(44);
    expect(await ping(t.app, account.appPassword.plain)).toBe(40);
    expect(await ping(t.app, account.appPassword.token)).toBe(40);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode).toBe(401);
  });

  it('refuses the other sessions on the very next request after a password change (app passwords stay, as before)', async () => {
    const account = await proofs();
    const other = (
      await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: account.userName, password: 'account password 1' } })
    ).json<{
      token: string;
    }>().token;
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(other) })).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(account.token),
      payload: { currentPassword: 'account password 1', newPassword: 'account password 2' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(other) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode).toBe(401);
    const renewed = changed.json<{ token: string }>().token;
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(renewed) })).statusCode).toBe(200);
    expect(await ping(t.app, account.appPassword.plain)).toBe('ok');
    expect(await ping(t.app, `u=${account.userName}&p=account%20password%202`)).toBe(41);
  });

  it('refuses everything of a deleted account on the very next call', async () => {
    const account = await proofs();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/account',
      headers: bearer(account.token),
      payload: { password: 'account password 1' },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await ping(t.app, account.apiKey.query)).toBe(44);
    expect(await ping(t.app, account.appPassword.plain)).toBe(40);
    expect(await ping(t.app, account.appPassword.token)).toBe(40);
    expect((await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode).toBe(401);
  });

  it('forgets a credential changed behind its back (a row deleted by SQL, by any process)', async () => {
    const account = await proofs();
    await t.app.encore.platform.database.db.delete(apiKeys).where(eq(apiKeys.id, account.apiKey.id));
    // The trigger's notification reaches this process's listener (on PostgreSQL, its own connection).
    await vi.waitFor(async () => expect(await ping(t.app, account.apiKey.query)).toBe(44));
  });

  it('keeps the rate limits: a user name with failures is checked in full again, even with a cached password', async () => {
    const account = await proofs();
    // SIGNIN_LIMIT_PER_USER is 3 here: three wrong tokens, and the right password is held back too.
    for (let i = 0; i < 3; i += 1) expect(await ping(t.app, `u=${account.userName}&t=${md5(`wrong${i}`)}&s=x`)).toBe(40);
    expect(await ping(t.app, account.appPassword.plain)).not.toBe('ok');
    expect(await ping(t.app, account.apiKey.query)).toBe('ok');
  });
});

describe('"last used" times of cached credentials', () => {
  it('are written at most once a minute per credential, several together', async () => {
    const writes: [UsageKind, number[]][] = [];
    const marks = new UsageMarks({
      write: async (kind, ids) => {
        writes.push([kind, [...ids]]);
      },
      resolutionMs: { 'api-key': 60_000, 'app-password': 60_000, user: 300_000 },
      logger: { warn: () => undefined },
    });
    const start = 1_000_000;
    marks.wrote('api-key', 1, start);
    marks.note('api-key', 1, start + 1_000);
    marks.note('api-key', 2, start + 1_000);
    marks.note('api-key', 3, start + 1_000);
    marks.note('api-key', 2, start + 2_000);
    await marks.flush();
    expect(writes).toEqual([['api-key', [2, 3]]]);
    marks.note('api-key', 1, start + 61_000);
    marks.note('api-key', 2, start + 30_000);
    await marks.flush();
    expect(writes).toEqual([
      ['api-key', [2, 3]],
      ['api-key', [1]],
    ]);
  });
});

describe.skipIf(!engines.includes('postgres'))('two Encore processes on one PostgreSQL', () => {
  let a: TestApp;
  let b: FastifyInstance;

  beforeAll(async () => {
    a = await startTestApp('postgres');
    // The same settings and data folder (its JWT secret, its storage), as scaled-out processes share them.
    b = await buildApp(a.config);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses in B a key revoked in A, on the first call after the revoke call returns', async () => {
    await a.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'ada', email: 'ada@example.com', password: 'account password 1' } });
    const token = (await a.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'ada', password: 'account password 1' } })).json<{
      token: string;
    }>().token;
    const key = (await a.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Desktop' } })).json<{
      id: number;
      key: string;
    }>();
    const query = `apiKey=${encodeURIComponent(key.key)}`;
    const findApiKey = vi.spyOn(AppCredentialsRepository.prototype, 'findApiKey');
    // B verifies it (and starts listening), then answers it from its cache.
    await vi.waitFor(async () => {
      expect(await ping(b, query)).toBe('ok');
      const before = findApiKey.mock.calls.length;
      expect(await ping(b, query)).toBe('ok');
      expect(findApiKey.mock.calls.length).toBe(before);
    });
    expect((await b.inject({ url: '/api/auth/profile', headers: bearer(token) })).statusCode).toBe(200);
    expect((await b.inject({ url: '/api/auth/profile', headers: bearer(token) })).statusCode).toBe(200);

    const revoked = await a.app.inject({ method: 'DELETE', url: `/api/auth/api-keys/${key.id}`, headers: bearer(token) });
    expect(revoked.statusCode).toBe(204);
    expect(await ping(b, query)).toBe(44);

    // The same for a session ended in A by a password change.
    const changed = await a.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(token),
      payload: { currentPassword: 'account password 1', newPassword: 'account password 2' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await b.inject({ url: '/api/auth/profile', headers: bearer(token) })).statusCode).toBe(401);
    vi.restoreAllMocks();
  });
});
