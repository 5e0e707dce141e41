import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, appPasswords, users } from '../../src/features/auth/auth.schema.js';
import { accountAdministrationPort, ClientCredentialsError, clientAuthenticationPort, type ClientCredentials } from '../../src/features/auth/auth.port.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const hex = (text: string) => `enc:${Buffer.from(text, 'utf8').toString('hex')}`;

describe.each(engines)('API keys and app passwords on %s', (engine) => {
  let t: TestApp;
  let address = 0;
  /** A client address of its own for each check, so the per-address limit only bites where a test wants it. */
  const nextAddress = () => `10.0.0.${(address += 1)}`;

  beforeAll(async () => {
    t = await startTestApp(engine, { SIGNIN_LIMIT_PER_USER: '6', SIGNIN_LIMIT_PER_IP: '6' });
  });
  afterAll(async () => t?.close());

  const port = () => t.app.encore.modules.port(clientAuthenticationPort);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function account(userName: string, password = 'account password 1'): Promise<string> {
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { userName, email: `${userName}@example.com`, password },
      remoteAddress: nextAddress(),
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password }, remoteAddress: nextAddress() });
    expect(response.statusCode).toBe(200);
    return response.json<{ token: string }>().token;
  }
  const create = (token: string, kind: 'api-keys' | 'app-passwords', name: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/auth/${kind}`, headers: bearer(token), payload: { name } });
  const list = (token: string, kind: 'api-keys' | 'app-passwords') => t.app.inject({ url: `/api/auth/${kind}`, headers: bearer(token) });
  const revoke = (token: string, kind: 'api-keys' | 'app-passwords', id: number | string) =>
    t.app.inject({ method: 'DELETE', url: `/api/auth/${kind}/${id}`, headers: bearer(token) });
  async function appPassword(token: string, name = 'Phone'): Promise<{ id: number; password: string }> {
    const response = await create(token, 'app-passwords', name);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number; password: string }>();
  }
  async function apiKey(token: string, name = 'Desktop'): Promise<{ id: number; key: string }> {
    const response = await create(token, 'api-keys', name);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number; key: string }>();
  }
  /** The code of the ClientCredentialsError the credentials get, or the user's name when accepted. */
  async function outcome(credentials: ClientCredentials, clientAddress = nextAddress()): Promise<number | string> {
    try {
      return (await port().authenticate(credentials, clientAddress)).userName;
    } catch (error) {
      if (error instanceof ClientCredentialsError) return error.code;
      throw error;
    }
  }

  it('creates, lists and revokes API keys and app passwords; the secret is answered once and stored only hashed or encrypted', async () => {
    const token = await account('ada');
    const key = await apiKey(token, '  Feishin on the laptop ');
    expect(key).toEqual({ id: expect.any(Number), name: 'Feishin on the laptop', key: expect.stringMatching(/^encore_[\w-]{43}$/) });
    const password = await appPassword(token, 'Symfonium');
    expect(password).toEqual({ id: expect.any(Number), name: 'Symfonium', password: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/) });

    const keys = await list(token, 'api-keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.json()).toEqual([{ id: key.id, name: 'Feishin on the laptop', createdAt: expect.any(String), lastUsedAt: null }]);
    expect(JSON.stringify((await list(token, 'app-passwords')).json())).not.toContain(password.password);

    const db = t.app.encore.platform.database.db;
    const [keyRow] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(keyRow?.keyHash).toBe(createHash('sha256').update(key.key).digest('hex'));
    const [passwordRow] = await db.select().from(appPasswords).where(eq(appPasswords.id, password.id));
    expect(passwordRow?.ciphertext).not.toContain(password.password);
    // A fresh nonce each time: the same password would not encrypt the same twice.
    expect(passwordRow?.ciphertext).toMatch(/^v1\.[\w-]+$/);

    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe('ada');
    const used = (await list(token, 'api-keys')).json<{ lastUsedAt: string | null }[]>();
    expect(used[0]?.lastUsedAt).not.toBeNull();

    expect((await revoke(token, 'api-keys', key.id)).statusCode).toBe(204);
    expect((await revoke(token, 'app-passwords', password.id)).statusCode).toBe(204);
    expect((await list(token, 'api-keys')).json()).toEqual([]);
    expect((await list(token, 'app-passwords')).json()).toEqual([]);
    expect((await revoke(token, 'api-keys', key.id)).statusCode).toBe(404);
  });

  it('accepts an app password as u+p plain, u+p enc:hex and u+t+s, whatever the case of the user name', async () => {
    const token = await account('grace');
    const { password } = await appPassword(token);
    expect(await outcome({ kind: 'password', userName: 'grace', password })).toBe('grace');
    expect(await outcome({ kind: 'password', userName: 'GRACE', password: hex(password) })).toBe('grace');
    // Typed on a phone: capitalised, without the dashes.
    expect(await outcome({ kind: 'password', userName: 'grace', password: password.replace(/-/g, '').toUpperCase() })).toBe('grace');
    expect(await outcome({ kind: 'token', userName: 'grace', token: md5(`${password}c0ffee`), salt: 'c0ffee' })).toBe('grace');
    expect(await outcome({ kind: 'token', userName: 'grace', token: md5(`${password.replace(/-/g, '')}s4lt`), salt: 's4lt' })).toBe('grace');

    const user = await port().authenticate({ kind: 'password', userName: 'grace', password }, nextAddress());
    expect(user).toMatchObject({ userName: 'grace', email: 'grace@example.com', remember: false });
    expect(user.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('never accepts the account password (41 with the way out), and answers 40 for anything else wrong', async () => {
    const token = await account('linus', 'account password 1');
    const { password } = await appPassword(token);
    const refused = await port()
      .authenticate({ kind: 'password', userName: 'linus', password: 'account password 1' }, nextAddress())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientCredentialsError);
    expect(refused).toMatchObject({
      code: 41,
      message: 'Use an app password: create one on your profile page. Your account password is not accepted by apps.',
    });
    expect(await outcome({ kind: 'password', userName: 'linus', password: hex('account password 1') })).toBe(41);
    expect(await outcome({ kind: 'token', userName: 'linus', token: md5('account password 1salt'), salt: 'salt' })).toBe(40);

    expect(await outcome({ kind: 'password', userName: 'nobody', password })).toBe(40);

    const dennis = await appPassword(await account('dennis'));
    expect(await outcome({ kind: 'password', userName: 'dennis', password: 'nope-nope-nope-nope' })).toBe(40);
    expect(await outcome({ kind: 'token', userName: 'dennis', token: md5(`${dennis.password}other`), salt: 'salt' })).toBe(40);
    expect(await outcome({ kind: 'token', userName: 'dennis', token: 'zz', salt: '' })).toBe(40);
    expect(await outcome({ kind: 'password', userName: 'dennis', password: 'enc:zz' })).toBe(40);
    // An app password of another user does not open this one.
    expect(await outcome({ kind: 'password', userName: 'dennis', password })).toBe(40);
    expect(await outcome({ kind: 'password', userName: 'dennis', password: dennis.password })).toBe('dennis');

    const wrongKey = await port()
      .authenticate({ kind: 'apiKey', key: 'encore_not-a-key' }, nextAddress())
      .catch((error: unknown) => error);
    expect(wrongKey).toMatchObject({ code: 44, message: 'Invalid API key' });
    expect(await outcome({ kind: 'apiKey', key: '' })).toBe(44);
  });

  it('refuses a revoked key or password at once, and keeps another user from revoking them (404)', async () => {
    const owner = await account('barbara');
    const stranger = await account('margaret');
    const key = await apiKey(owner);
    const { id, password } = await appPassword(owner);
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe('barbara');

    expect((await revoke(stranger, 'api-keys', key.id)).statusCode).toBe(404);
    expect((await revoke(stranger, 'app-passwords', id)).statusCode).toBe(404);
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe('barbara');
    expect(await outcome({ kind: 'password', userName: 'barbara', password })).toBe('barbara');

    expect((await revoke(owner, 'api-keys', key.id)).statusCode).toBe(204);
    expect((await revoke(owner, 'app-passwords', id)).statusCode).toBe(204);
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe(44);
    expect(await outcome({ kind: 'password', userName: 'barbara', password })).toBe(40);
  });

  it('keeps them through a password change, and drops them with the account', async () => {
    const token = await account('edsger', 'account password 1');
    const key = await apiKey(token);
    const { password } = await appPassword(token);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: bearer(token),
      payload: { currentPassword: 'account password 1', newPassword: 'account password 2' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe('edsger');
    expect(await outcome({ kind: 'password', userName: 'edsger', password })).toBe('edsger');
    expect(await outcome({ kind: 'password', userName: 'edsger', password: 'account password 2' })).toBe(41);

    const db = t.app.encore.platform.database.db;
    const [gone] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'edsger'));
    // Through the account's owner (as the admin page and the account page delete): the next call is refused at once, in every process.
    await t.app.encore.modules.port(accountAdministrationPort).delete(gone?.id ?? 0);
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe(44);
    expect(await outcome({ kind: 'password', userName: 'edsger', password })).toBe(40);
    expect(
      await db
        .select()
        .from(appPasswords)
        .where(eq(appPasswords.userId, gone?.id ?? 0)),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.userId, gone?.id ?? 0)),
    ).toEqual([]);
  });

  it('limits failed attempts per user name and per client address; a success clears the user name', async () => {
    const token = await account('alan');
    const { password } = await appPassword(token);
    const wrong: ClientCredentials = { kind: 'password', userName: 'alan', password: 'wrong-wron-wron-wron' };
    // Two failures, a success (clears the count), then six failures reach the limit of 6.
    expect(await outcome(wrong)).toBe(40);
    expect(await outcome(wrong)).toBe(40);
    expect(await outcome({ kind: 'password', userName: 'alan', password })).toBe('alan');
    for (let i = 0; i < 6; i += 1) expect(await outcome(wrong)).toBe(40);
    const limited = await port()
      .authenticate({ kind: 'password', userName: 'alan', password }, nextAddress())
      .catch((error: unknown) => error);
    expect(limited).toMatchObject({ kind: 'rate-limited', message: expect.stringContaining('Too many sign-in attempts') });

    // Per address: six failures of any kind from one address, then even a good key is refused there.
    const key = await apiKey(await account('hedy'));
    const here = nextAddress();
    for (let i = 0; i < 6; i += 1) expect(await outcome({ kind: 'apiKey', key: `encore_wrong${i}` }, here)).toBe(44);
    await expect(port().authenticate({ kind: 'apiKey', key: key.key }, here)).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(await outcome({ kind: 'apiKey', key: key.key })).toBe('hedy');
    // Successes do not count against an address (a client sends its credentials with every request).
    const busy = nextAddress();
    for (let i = 0; i < 8; i += 1) expect(await outcome({ kind: 'apiKey', key: key.key }, busy)).toBe('hedy');
  });

  it('refuses bad names and ids with 4xx, and caps how many one user holds even when created at once', async () => {
    const token = await account('katherine');
    expect((await create(token, 'api-keys', '   ')).statusCode).toBe(400);
    expect((await create(token, 'app-passwords', 'x'.repeat(101))).statusCode).toBe(400);
    expect((await create(token, 'app-passwords', 'tab\u0000name')).statusCode).toBe(400);
    expect((await create(token, 'api-keys', 42)).statusCode).toBe(400);
    expect((await revoke(token, 'api-keys', 'abc')).statusCode).toBe(400);
    expect((await revoke(token, 'app-passwords', 2147483648)).statusCode).toBe(400);
    expect((await revoke(token, 'app-passwords', 2147483647)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/auth/api-keys' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/app-passwords', payload: { name: 'x' } })).statusCode).toBe(401);

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => create(token, i % 2 ? 'api-keys' : 'app-passwords', `App ${i}`)));
    expect(answers.map((response) => response.statusCode).every((status) => status === 201)).toBe(true);
    const more = await Promise.all(Array.from({ length: 14 }, (_, i) => create(token, 'app-passwords', `More ${i}`)));
    const statuses = more.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    expect((await list(token, 'app-passwords')).json()).toHaveLength(25);
    expect(new Set((await list(token, 'app-passwords')).json<{ id: number }[]>().map((row) => row.id)).size).toBe(25);
  });
});
