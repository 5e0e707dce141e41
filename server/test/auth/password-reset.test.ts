import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../../src/features/auth/auth.schema.js';
import { engines, startTestApp, waitForOutboxMail, type TestApp } from '../support/test-app.js';
import { linksTo, waitForLink } from './auth-mail.js';

describe.each(engines)('password reset on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });
  const signIn = (userName: string, password: string) => post('/api/auth/signin', { userName, password });

  async function account(userName: string, password = 'first password 1') {
    await post('/api/auth/signup', { userName, email: `${userName}@example.com`, password });
    const { token } = (await signIn(userName, password)).json<{ token: string }>();
    return token;
  }

  async function requestLink(userName: string): Promise<URL> {
    const email = `${userName}@example.com`;
    const seen = await linksTo(t.dataDir, email, '/reset-password');
    const response = await post('/api/email/forgot-password', { email, userName });
    expect(response.statusCode).toBe(200);
    return waitForLink(t.dataDir, email, '/reset-password', seen);
  }

  it('mails a single-use link that sets a new password and ends every earlier session', async () => {
    const oldToken = await account('rosalind');
    const link = await requestLink('rosalind');
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('email')).toBe('rosalind@example.com');
    const token = link.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(40);

    const reset = await post('/api/email/reset-password', { Email: 'rosalind@example.com', Token: token, NewPassword: 'second password 2' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ success: true });

    expect((await signIn('rosalind', 'first password 1')).statusCode).toBe(401);
    expect((await signIn('rosalind', 'second password 2')).statusCode).toBe(200);
    const stale = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${oldToken}` } });
    expect(stale.statusCode).toBe(401);

    const reused = await post('/api/email/reset-password', { Email: 'rosalind@example.com', Token: token, NewPassword: 'third password 3' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: 'This reset link is invalid or has expired.' });
    expect((await signIn('rosalind', 'second password 2')).statusCode).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    await account('hashed');
    const link = await requestLink('hashed');
    const token = link.searchParams.get('token') ?? '';
    const rows = await t.app.encore.platform.database.db.select().from(passwordResetTokens);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.tokenHash).not.toContain(token);
  });

  it('accepts the camelCase spelling too', async () => {
    await account('camel');
    const link = await requestLink('camel');
    const reset = await post('/api/email/reset-password', {
      email: 'camel@example.com',
      token: link.searchParams.get('token'),
      newPassword: 'camel password 2',
    });
    expect(reset.statusCode).toBe(200);
  });

  it('answers the same whether or not the account exists, and mails only real accounts', async () => {
    await account('hedy');
    const real = await post('/api/email/forgot-password', { email: 'hedy@example.com', userName: 'hedy' });
    const wrongName = await post('/api/email/forgot-password', { email: 'hedy@example.com', userName: 'not-hedy' });
    const unknown = await post('/api/email/forgot-password', { email: 'ghost@example.com', userName: 'ghost' });
    expect(real.statusCode).toBe(200);
    for (const other of [wrongName, unknown]) {
      expect(other.statusCode).toBe(real.statusCode);
      expect(other.body).toBe(real.body);
      expect(other.headers['content-length']).toBe(real.headers['content-length']);
    }
    await waitForLink(t.dataDir, 'hedy@example.com', '/reset-password');
    await expect(waitForOutboxMail(t.dataDir, 'ghost@example.com', 2500)).rejects.toThrow();
  });

  it("marks the e-mail verified: the reset link proved the inbox is the user's", async () => {
    const token = await account('dorothy');
    const profile = async () =>
      (await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } })).json<{ emailVerified: boolean }>();
    expect((await profile()).emailVerified).toBe(false);
    const link = await requestLink('dorothy');
    await post('/api/email/reset-password', { Email: 'dorothy@example.com', Token: link.searchParams.get('token'), NewPassword: 'dorothy new 2' });
    const fresh = (await signIn('dorothy', 'dorothy new 2')).json<{ token: string }>().token;
    const after = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${fresh}` } });
    expect(after.json()).toMatchObject({ emailVerified: true });
  });

  it.each([
    [{ email: '', userName: 'x' }, 'Please enter both email and username'],
    [{ email: 'a@b.co' }, 'Please enter both email and username'],
    [{ email: 'nope', userName: 'x' }, 'Please enter a valid email address'],
  ])('validates forgot-password %j', async (payload, message) => {
    const response = await post('/api/email/forgot-password', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('refuses forged, expired, foreign and malformed reset requests', async () => {
    await account('barbara');
    await account('frances');
    const link = await requestLink('barbara');
    const token = link.searchParams.get('token') ?? '';
    const reset = (payload: Record<string, unknown>) => post('/api/email/reset-password', payload);

    const forged = await reset({ Email: 'barbara@example.com', Token: 'A'.repeat(43), NewPassword: 'new password 9' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: 'This reset link is invalid or has expired.' });

    const foreign = await reset({ Email: 'frances@example.com', Token: token, NewPassword: 'new password 9' });
    expect(foreign.statusCode).toBe(400);

    expect((await reset({ Email: 'barbara@example.com', Token: token, NewPassword: '' })).json()).toEqual({ message: 'Please enter a new password' });
    expect((await reset({ Email: 'barbara@example.com', Token: token, NewPassword: 'short' })).json()).toEqual({
      message: 'Password must be at least 8 characters',
    });
    expect((await reset({ Email: 'barbara@example.com', NewPassword: 'long enough 1' })).statusCode).toBe(400);

    // Expire the token in the database, as 30 minutes passing would.
    await t.app.encore.platform.database.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await reset({ Email: 'barbara@example.com', Token: token, NewPassword: 'new password 9' });
    expect(expired.statusCode).toBe(400);
    expect((await signIn('barbara', 'first password 1')).statusCode).toBe(200);
  });

  it('makes reset links expire 30 minutes after they are sent', async () => {
    await account('thirty');
    await requestLink('thirty');
    const rows = await t.app.encore.platform.database.db.select().from(passwordResetTokens);
    const newest = rows.sort((a, b) => b.id - a.id)[0];
    const minutes = ((newest?.expiresAt.getTime() ?? 0) - (newest?.createdAt.getTime() ?? 0)) / 60_000;
    expect(minutes).toBeGreaterThan(29.9);
    expect(minutes).toBeLessThan(30.1);
  });
});

describe.each(engines)('forgot password on %s does its look-up in a background job', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { WORKER: 'off' });
  });
  afterAll(async () => t?.close());

  it('answers at once, the same for everyone, and the job then mails the real account', async () => {
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
    await post('/api/auth/signup', { userName: 'grace', email: 'grace@example.com', password: 'grace password 1' });
    const real = await post('/api/email/forgot-password', { email: 'grace@example.com', userName: 'grace' });
    const unknown = await post('/api/email/forgot-password', { email: 'nobody@example.com', userName: 'nobody' });
    expect(real.statusCode).toBe(200);
    expect(unknown.body).toBe(real.body);
    // No worker runs yet: the request itself did no look-up and made no token.
    const { database, jobs } = t.app.encore.platform;
    expect(await database.db.select().from(passwordResetTokens)).toHaveLength(0);

    await jobs.work('all');
    const link = await waitForLink(t.dataDir, 'grace@example.com', '/reset-password');
    expect(link.searchParams.get('email')).toBe('grace@example.com');
    expect(await database.db.select().from(passwordResetTokens)).toHaveLength(1);
    await expect(waitForOutboxMail(t.dataDir, 'nobody@example.com', 1500)).rejects.toThrow();
  });
});
