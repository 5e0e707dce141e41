import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerificationTokens } from '../../src/features/auth/auth.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { linksTo, mailsTo, waitForLink } from './auth-mail.js';

describe.each(engines)('e-mail verification on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload?: object, token?: string, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const profile = async (token: string) =>
    (await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } })).json<{ emailVerified: boolean }>();

  /** Signs up, signs in and returns the session and the verification link mailed at sign-up. */
  async function account(userName: string): Promise<{ session: string; link: URL; email: string }> {
    const email = `${userName}@example.com`;
    expect((await post('/api/auth/signup', { userName, email, password: `${userName} password 1` })).statusCode).toBe(201);
    const session = (await post('/api/auth/signin', { userName, password: `${userName} password 1` })).json<{ token: string }>().token;
    return { session, link: await waitForLink(t.dataDir, email, '/verify-email'), email };
  }

  it('mails a link at sign-up that verifies the address once, and says to ignore it if it was not you', async () => {
    const { session, link, email } = await account('ada');
    expect(await profile(session)).toMatchObject({ emailVerified: false });
    const [mail] = await mailsTo(t.dataDir, email);
    expect(mail).toContain('If you did not create this account, ignore this e-mail');
    const token = link.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(40);

    const first = await post('/api/auth/verify-email', { token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, message: 'Your e-mail address is verified.' });
    expect(await profile(session)).toMatchObject({ emailVerified: true });

    const again = await post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'This verification link is invalid, expired or already used.' });
  });

  it('stores only a hash of the token, with a 24-hour life', async () => {
    const { link } = await account('hashed');
    const token = link.searchParams.get('token') ?? '';
    const rows = await t.app.encore.platform.database.db.select().from(emailVerificationTokens);
    for (const row of rows) expect(row.tokenHash).not.toContain(token);
    const newest = rows.sort((a, b) => b.id - a.id)[0];
    const hours = ((newest?.expiresAt.getTime() ?? 0) - (newest?.createdAt.getTime() ?? 0)) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThan(24.1);
  });

  it('refuses an expired link', async () => {
    const { session, link } = await account('late');
    await t.app.encore.platform.database.db.update(emailVerificationTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(response.statusCode).toBe(400);
    expect(await profile(session)).toMatchObject({ emailVerified: false });
  });

  it("verifies only the account the link was mailed for, never the caller's", async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    // Bob, signed in, opens Alice's link: Alice's address is verified, Bob's is not.
    expect((await post('/api/auth/verify-email', { token: alice.link.searchParams.get('token') }, bob.session)).statusCode).toBe(200);
    expect(await profile(alice.session)).toMatchObject({ emailVerified: true });
    expect(await profile(bob.session)).toMatchObject({ emailVerified: false });
  });

  it('refuses a link mailed to an address the account no longer has', async () => {
    const { session, link } = await account('switcher');
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: { authorization: `Bearer ${session}` },
      payload: { email: 'switched@example.com' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await post('/api/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(400);
    expect(await profile(session)).toMatchObject({ emailVerified: false });
    // The link mailed to the new address does it.
    const fresh = await waitForLink(t.dataDir, 'switched@example.com', '/verify-email');
    expect((await post('/api/auth/verify-email', { token: fresh.searchParams.get('token') })).statusCode).toBe(200);
    expect(await profile(session)).toMatchObject({ emailVerified: true });
  });

  it.each([[{}], [{ token: '' }], [{ token: 'A'.repeat(43) }], [{ token: 'x'.repeat(5000) }]])('answers 400 to the bad token %#', async (payload) => {
    const response = await post('/api/auth/verify-email', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'This verification link is invalid, expired or already used.' });
  });

  it('resends to a signed-in user, at most three times an hour, and not once verified', async () => {
    expect((await post('/api/auth/resend-verification')).statusCode).toBe(401);
    const { session, link, email } = await account('again');
    const sent = await post('/api/auth/resend-verification', undefined, session, '198.51.100.1');
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ success: true, message: `A verification link is on its way to ${email}.` });
    const second = await waitForLink(t.dataDir, email, '/verify-email', [link]);
    expect(second.href).not.toBe(link.href);

    expect((await post('/api/auth/resend-verification', undefined, session, '198.51.100.2')).statusCode).toBe(200);
    expect((await post('/api/auth/resend-verification', undefined, session, '198.51.100.3')).statusCode).toBe(200);
    const limited = await post('/api/auth/resend-verification', undefined, session, '198.51.100.4');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Any of the links still works (the first one used retires the rest).
    const links = await linksTo(t.dataDir, email, '/verify-email');
    expect((await post('/api/auth/verify-email', { token: links[0]?.searchParams.get('token') })).statusCode).toBe(200);
    expect((await post('/api/auth/verify-email', { token: second.searchParams.get('token') })).statusCode).toBe(400);
  });

  it('says so when the address is already verified', async () => {
    const { session, link } = await account('done');
    await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
    const response = await post('/api/auth/resend-verification', undefined, session, '198.51.100.9');
    expect(response.json()).toEqual({ success: true, message: 'Your e-mail address is already verified.' });
  });
});
