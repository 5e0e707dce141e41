import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/features/auth/auth.schema.js';
import { startGoogleKeyServer, type GoogleKeyServer } from '../support/google-keys.js';
import { authMessagesEn } from '@encore/common/messages.en';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { linksTo, waitForLink } from './auth-mail.js';

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
    // Google vouched for the address, so the account starts verified.
    expect(profile.json()).toEqual({ ...body.user, emailVerified: true, role: 'admin' });

    // Same subject, e-mail changed at Google: same account.
    const again = await login(await google.sign(claims('sub-1', 'ada.new@gmail.example')));
    expect(again.json<{ user: { userName: string } }>().user.userName).toBe('Ada Lovelace');
    const rows = await t.app.encore.platform.database.db.select().from(users);
    expect(rows.filter((u) => u.googleSubject === 'sub-1')).toHaveLength(1);
  });

  it('gives a second person with the same display name a distinct user name', async () => {
    const other = await login(await google.sign(claims('sub-2', 'other.ada@gmail.example')));
    expect(other.json<{ user: { userName: string } }>().user.userName).toBe('Ada Lovelace 2');
  });

  const post = (url: string, payload: object, token?: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const signIn = (userName: string, password: string) => post('/api/auth/signin', { userName, password });
  const usersNamed = async (userName: string) => (await t.app.encore.platform.database.db.select().from(users)).filter((u) => u.userName === userName);

  it("does not let a sign-up with someone else's address take over their Google sign-in", async () => {
    // The attacker signs up with the victim's address and never verifies it.
    const signUp = await post('/api/auth/signup', { userName: 'mallory', email: 'victim@gmail.example', password: 'mallory password 1' });
    expect(signUp.statusCode).toBe(201);
    const [before] = await usersNamed('mallory');

    // The victim continues with Google: no link, no session, a clear 409.
    const response = await login(await google.sign(claims('sub-victim', 'victim@gmail.example')));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: authMessagesEn.googleEmailUnverified });
    expect(response.body).not.toMatch(/token/);

    // The attacker's account is as it was, and nothing was created for the victim.
    const [after] = await usersNamed('mallory');
    expect(after).toEqual(before);
    expect(after?.googleSubject).toBeNull();
    const all = await t.app.encore.platform.database.db.select().from(users);
    expect(all.filter((u) => u.googleSubject === 'sub-victim')).toHaveLength(0);
    expect((await signIn('mallory', 'mallory password 1')).statusCode).toBe(200);
  });

  it('links an existing password account once its e-mail is verified', async () => {
    await post('/api/auth/signup', { userName: 'joan', email: 'joan@gmail.example', password: 'joan password 1' });
    const link = await waitForLink(t.dataDir, 'joan@gmail.example', '/verify-email');
    expect((await post('/api/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);

    const response = await login(await google.sign(claims('sub-joan', 'joan@gmail.example')));
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: { userName: string } }>().user.userName).toBe('joan');
    const [joan] = await usersNamed('joan');
    expect(joan?.googleSubject).toBe('sub-joan');
    // The password still works: it was the owner's all along.
    expect((await signIn('joan', 'joan password 1')).statusCode).toBe(200);
  });

  it('mails the address owner a reset link on the refusal; after the reset Google links and the old password is gone', async () => {
    await post('/api/auth/signup', { userName: 'squatter', email: 'owner@gmail.example', password: 'squatter password' });
    const squatterSession = (await signIn('squatter', 'squatter password')).json<{ token: string }>().token;
    const seen = await linksTo(t.dataDir, 'owner@gmail.example', '/reset-password');
    expect((await login(await google.sign(claims('sub-owner', 'owner@gmail.example')))).statusCode).toBe(409);

    // Google vouched for the address, so its owner gets a reset link naming the account; using
    // it proves control of the inbox (nobody had to know the squatter's user name).
    const reset = await waitForLink(t.dataDir, 'owner@gmail.example', '/reset-password', seen);
    const done = await post('/api/email/reset-password', {
      email: 'owner@gmail.example',
      token: reset.searchParams.get('token'),
      newPassword: 'owner password 2',
    });
    expect(done.statusCode).toBe(200);

    const response = await login(await google.sign(claims('sub-owner', 'owner@gmail.example')));
    expect(response.statusCode).toBe(200);
    expect((await signIn('squatter', 'squatter password')).statusCode).toBe(401);
    const stale = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${squatterSession}` } });
    expect(stale.statusCode).toBe(401);
  });

  it('forgets the verification when the e-mail changes, so the new address cannot be linked yet', async () => {
    await post('/api/auth/signup', { userName: 'mover', email: 'mover@gmail.example', password: 'mover password 1' });
    const verify = await waitForLink(t.dataDir, 'mover@gmail.example', '/verify-email');
    await post('/api/auth/verify-email', { token: verify.searchParams.get('token') });
    const session = (await signIn('mover', 'mover password 1')).json<{ token: string }>().token;
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: { authorization: `Bearer ${session}` },
      payload: { email: 'someone.else@gmail.example' },
    });
    expect(changed.json()).toEqual({ userName: 'mover', email: 'someone.else@gmail.example', emailVerified: false, role: 'user' });
    expect((await login(await google.sign(claims('sub-someone', 'someone.else@gmail.example')))).statusCode).toBe(409);
    // The new address gets its own link.
    await waitForLink(t.dataDir, 'someone.else@gmail.example', '/verify-email');
  });

  it('keeps unverified password accounts usable with their password', async () => {
    await post('/api/auth/signup', { userName: 'legacy', email: 'legacy@example.com', password: 'legacy password 1' });
    const response = await signIn('legacy', 'legacy password 1');
    expect(response.statusCode).toBe(200);
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${response.json<{ token: string }>().token}` } });
    expect(profile.json()).toEqual({ userName: 'legacy', email: 'legacy@example.com', emailVerified: false, role: 'user' });
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
