import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleKeyServer, type GoogleKeyServer } from '../support/google-keys.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const CLIENT_ID = 'encore-test-client.apps.googleusercontent.com';

describe.each(engines)('changing the password on %s', (engine) => {
  let google: GoogleKeyServer;
  let t: TestApp;
  beforeAll(async () => {
    google = await startGoogleKeyServer();
    t = await startTestApp(engine, { SIGNIN_LIMIT_PER_USER: '3', GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl });
  });
  afterAll(async () => {
    await t?.close();
    await google?.close();
  });

  const bearer = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});
  const signIn = (userName: string, password: string, rememberMe?: boolean) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password, rememberMe } });
  const change = (token: string | undefined, payload: object) => t.app.inject({ method: 'PUT', url: '/api/auth/password', payload, headers: bearer(token) });
  const profile = (token: string) => t.app.inject({ url: '/api/auth/profile', headers: bearer(token) });
  const lifetime = (token: string) => {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number; exp: number };
    return payload.exp - payload.iat;
  };

  async function account(userName: string, password = 'first password 1', rememberMe?: boolean): Promise<string> {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password } });
    const response = await signIn(userName, password, rememberMe);
    expect(response.statusCode).toBe(200);
    return response.json<{ token: string }>().token;
  }

  it('sets the new password, ends the other sessions and answers with a token that works', async () => {
    const here = await account('marie');
    const elsewhere = (await signIn('marie', 'first password 1')).json<{ token: string }>().token;

    const response = await change(here, { currentPassword: 'first password 1', newPassword: 'second password 2' });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; user: { userName: string; email: string } }>();
    expect(body.user).toEqual({ userName: 'marie', email: 'marie@example.com' });

    expect((await signIn('marie', 'first password 1')).statusCode).toBe(401);
    expect((await signIn('marie', 'second password 2')).statusCode).toBe(200);
    expect((await profile(here)).statusCode).toBe(401);
    expect((await profile(elsewhere)).statusCode).toBe(401);
    const fresh = await profile(body.token);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ userName: 'marie' });
  });

  it('keeps the session\'s "remember me" lifetime in the new token', async () => {
    const short = await account('pierre', 'first password 1', false);
    const long = (await signIn('pierre', 'first password 1', true)).json<{ token: string }>().token;
    expect(lifetime(short)).toBeLessThan(lifetime(long));

    const fromShort = await change(short, { currentPassword: 'first password 1', newPassword: 'second password 2' });
    expect(lifetime(fromShort.json<{ token: string }>().token)).toBe(lifetime(short));
    const again = (await signIn('pierre', 'second password 2', true)).json<{ token: string }>().token;
    const fromLong = await change(again, { currentPassword: 'second password 2', newPassword: 'third password 3' });
    expect(lifetime(fromLong.json<{ token: string }>().token)).toBe(lifetime(long));
  });

  it('refuses a wrong current password with 400, keeping the password and the session', async () => {
    const token = await account('irene');
    const response = await change(token, { currentPassword: 'not my password', newPassword: 'second password 2' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Your current password is not correct.' });
    expect((await profile(token)).statusCode).toBe(200);
    expect((await signIn('irene', 'first password 1')).statusCode).toBe(200);
  });

  it("refuses a weak new password with the sign-up rule's message", async () => {
    const token = await account('frederic');
    const response = await change(token, { currentPassword: 'first password 1', newPassword: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('Password must be at least 8 characters');
    expect((await signIn('frederic', 'first password 1')).statusCode).toBe(200);
    const missing = await change(token, { newPassword: 'second password 2' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('Please enter your current password');
  });

  it('tells a Google-only account to set a password with a reset link', async () => {
    const credential = await google.sign({ sub: 'sub-pw', email: 'google.only@gmail.example', email_verified: true, name: 'Google Only' });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/google-login', payload: { credential } });
    const { token } = login.json<{ token: string }>();
    const response = await change(token, { currentPassword: 'anything at all', newPassword: 'second password 2' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/no password yet.*reset link/);
    expect((await profile(token)).statusCode).toBe(200);
  });

  it('limits wrong current passwords per account with the sign-in limits, then 429', async () => {
    const token = await account('lise');
    for (let i = 0; i < 3; i += 1) {
      expect((await change(token, { currentPassword: `wrong ${i}`, newPassword: 'second password 2' })).statusCode).toBe(400);
    }
    const locked = await change(token, { currentPassword: 'first password 1', newPassword: 'second password 2' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toMatch(/^Too many wrong passwords/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn('lise', 'first password 1')).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    expect((await change(undefined, { currentPassword: 'first password 1', newPassword: 'second password 2' })).statusCode).toBe(401);
    expect((await change('not-a-token', { currentPassword: 'first password 1', newPassword: 'second password 2' })).statusCode).toBe(401);
  });
});
