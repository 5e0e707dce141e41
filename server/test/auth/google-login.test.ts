import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleKeyServer, type GoogleKeyServer } from '../support/google-keys.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const CLIENT_ID = 'encore-test-client.apps.googleusercontent.com';

describe.each(engines)('Google sign-in on %s', (engine) => {
  let google: GoogleKeyServer;
  let t: TestApp;
  beforeAll(async () => {
    google = await startGoogleKeyServer();
    t = await startTestApp(engine, { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl });
  });
  afterAll(async () => {
    await t?.close();
    await google?.close();
  });

  const login = (credential: string) => t.app.inject({ method: 'POST', url: '/api/auth/google-login', payload: { credential } });
  const claims = (sub: string, email: string) => ({ sub, email, email_verified: true, name: 'Ada Lovelace' });

  it('tells the web app the client id', async () => {
    expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ googleClientId: CLIENT_ID });
  });

  it('creates the user on first sign-in and finds them again by subject', async () => {
    const first = await login(await google.sign(claims('sub-1', 'ada@gmail.example')));
    expect(first.statusCode).toBe(200);
    const body = first.json<{ token: string; user: { userName: string; email: string } }>();
    expect(body.user).toEqual({ userName: 'Ada Lovelace', email: 'ada@gmail.example' });
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.json()).toEqual(body.user);

    // Same subject, e-mail changed at Google: same account.
    const again = await login(await google.sign(claims('sub-1', 'ada.new@gmail.example')));
    expect(again.json<{ user: { userName: string } }>().user.userName).toBe('Ada Lovelace');
    const users = await t.app.encore.platform.database.db.query.users.findMany();
    expect(users.filter((u) => u.googleSubject === 'sub-1')).toHaveLength(1);
  });

  it('gives a second person with the same display name a distinct user name', async () => {
    const other = await login(await google.sign(claims('sub-2', 'other.ada@gmail.example')));
    expect(other.json<{ user: { userName: string } }>().user.userName).toBe('Ada Lovelace 2');
  });

  it('links an existing password account with the same verified e-mail', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'joan', email: 'joan@gmail.example', password: 'joan password 1' } });
    const response = await login(await google.sign(claims('sub-joan', 'joan@gmail.example')));
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: { userName: string } }>().user.userName).toBe('joan');
  });

  it.each([
    ['a wrong audience', { audience: 'someone-else.apps.googleusercontent.com' }],
    ['a wrong signature', { key: 'stranger' as const }],
    ['an expired token', { expiresIn: Math.floor(Date.now() / 1000) - 60 }],
    ['a wrong issuer', { issuer: 'https://evil.example' }],
  ])('refuses %s', async (_label, options) => {
    const response = await login(await google.sign(claims('sub-bad', 'bad@gmail.example'), options));
    expect(response.statusCode).toBe(401);
    expect(response.json<{ message: string }>().message).toMatch(/^Google login failed/);
  });

  it('refuses garbage and an empty credential', async () => {
    expect((await login('not-a-jwt')).statusCode).toBe(401);
    const empty = await login('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: 'A Google credential is required' });
  });
});

describe('Google sign-in when not configured', () => {
  it('hides the button and answers 503', async () => {
    const t = await startTestApp('pglite');
    try {
      expect((await t.app.inject({ url: '/api/config' })).json()).toMatchObject({ googleClientId: null });
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/google-login', payload: { credential: 'x.y.z' } });
      expect(response.statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});
