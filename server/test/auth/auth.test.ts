import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { users } from '../../src/features/auth/auth.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(engines)('accounts on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const signUp = (userName: string, email = `${userName}@example.com`, password = 'correct horse 1') => post('/api/auth/signup', { userName, email, password });
  const signIn = (userName: string, password = 'correct horse 1', extra: Record<string, unknown> = {}) =>
    post('/api/auth/signin', { userName, password, ...extra });

  it('signs up without signing in, then signs in and reads the profile', async () => {
    const created = await signUp('ada');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ user: { userName: 'ada', email: 'ada@example.com' } });
    expect(created.json()).not.toHaveProperty('token');

    const signedIn = await signIn('ada');
    expect(signedIn.statusCode).toBe(200);
    const body = signedIn.json<{ token: string; user: { email: string; userName: string } }>();
    expect(body.user).toEqual({ userName: 'ada', email: 'ada@example.com' });

    const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.statusCode).toBe(200);
    // The instance's first account is its admin.
    expect(profile.json()).toEqual({ userName: 'ada', email: 'ada@example.com', emailVerified: false, role: 'admin' });
  });

  it('never stores the password in the clear, and hashes with argon2id at OWASP strength', async () => {
    await signUp('hashcheck');
    const rows = await t.app.encore.platform.database.db.select().from(users);
    const row = rows.find((r) => r.userName === 'hashcheck');
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain('correct horse 1');
  });

  it('signs in with the user name in any case and keeps long passwords whole', async () => {
    const long = 'p'.repeat(100) + '!';
    await signUp('Grace', 'grace@example.com', long);
    expect((await signIn('grace', long)).statusCode).toBe(200);
    // No truncation: the same first 72 characters with a different tail must fail.
    expect((await signIn('grace', 'p'.repeat(100) + '?')).statusCode).toBe(401);
  });

  it.each([
    [{ email: 'a@b.co', password: 'longenough' }, 'Username is required'],
    [{ userName: '   ', email: 'a@b.co', password: 'longenough' }, 'Username is required'],
    [{ userName: 'x', password: 'longenough' }, 'Email is required for signing up.'],
    [{ userName: 'x', email: '', password: 'longenough' }, 'Email is required for signing up.'],
    [{ userName: 'x', email: 'not-an-email', password: 'longenough' }, 'Invalid email address'],
    [{ userName: 'x', email: 'a@b.co', password: 'short' }, 'Password must be at least 8 characters'],
    [{ userName: 'x', email: 'a@b.co', password: 'y'.repeat(257) }, 'Password must be at most 256 characters'],
    [{ userName: 'u'.repeat(51), email: 'a@b.co', password: 'longenough' }, 'Username must be at most 50 characters'],
  ])('refuses sign-up %j with "%s"', async (payload, message) => {
    const response = await post('/api/auth/signup', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it.each([
    [{ password: 'whatever1' }, 'Username is required'],
    [{ userName: 'ada' }, 'Password is required'],
    [{ userName: 'ada', password: '' }, 'Password is required'],
  ])('refuses sign-in %j with "%s"', async (payload, message) => {
    const response = await post('/api/auth/signin', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('answers a malformed JSON body with 400 and a clear message', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: '{"userName":', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('refuses a taken user name or e-mail with 409, in any letter case, and keeps one row', async () => {
    await signUp('linus', 'linus@example.com');
    const sameName = await signUp('LINUS', 'other@example.com');
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({ message: 'That user name is already taken.' });
    const sameEmail = await signUp('linus2', 'Linus@Example.com');
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({ message: 'An account with that e-mail already exists.' });
    const rows = await t.app.encore.platform.database.db.select().from(users);
    expect(rows.filter((r) => r.userName.toLowerCase().startsWith('linus'))).toHaveLength(1);
  });

  it('lets only one of two simultaneous sign-ups with the same name through', async () => {
    const [a, b] = await Promise.all([signUp('twin', 'twin1@example.com'), signUp('twin', 'twin2@example.com')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    await signUp('margaret');
    const wrong = await signIn('margaret', 'not the password');
    const unknown = await signIn('nobody-here', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ message: 'Wrong username or password.' });
  });

  it('refuses profile calls without, with a tampered, a forged or an expired token', async () => {
    await signUp('alan');
    const { token } = (await signIn('alan')).json<{ token: string }>();
    const call = (authorization?: string) => t.app.inject({ url: '/api/auth/profile', headers: authorization ? { authorization } : {} });

    expect((await call()).statusCode).toBe(401);
    expect((await call()).json()).toEqual({ message: 'Please sign in to continue.' });
    expect((await call('Basic abc')).statusCode).toBe(401);

    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect((await call(`Bearer ${header}.${tamperedPayload}.${signature}`)).statusCode).toBe(401);

    const forged = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims['sub']))
      .setIssuer('encore')
      .setAudience('encore-web')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'));
    expect((await call(`Bearer ${forged}`)).statusCode).toBe(401);

    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect((await call(`Bearer ${unsigned}`)).statusCode).toBe(401);

    const secrets = t.app.encore.platform.secrets;
    const expired = await new SignJWT({ ver: claims['ver'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims['sub']))
      .setIssuer('encore')
      .setAudience('encore-web')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(secrets.jwtKey);
    const expiredAnswer = await call(`Bearer ${expired}`);
    expect(expiredAnswer.statusCode).toBe(401);
    expect(expiredAnswer.json()).toEqual({ message: 'Your session has expired. Please sign in again.' });

    expect((await call(`Bearer ${token}`)).statusCode).toBe(200);
  });

  it('issues a shorter session when Remember me is off', async () => {
    await signUp('brief');
    const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number };
    const remembered = decode((await signIn('brief')).json<{ token: string }>().token);
    const brief = decode((await signIn('brief', 'correct horse 1', { rememberMe: false })).json<{ token: string }>().token);
    expect(remembered.exp - remembered.iat).toBe(30 * 24 * 3600);
    expect(brief.exp - brief.iat).toBe(12 * 3600);
  });

  it('updates the profile, refusing a name another user holds', async () => {
    await signUp('katherine');
    await signUp('dorothy');
    const { token } = (await signIn('katherine')).json<{ token: string }>();
    const put = (payload: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/auth/profile', payload: payload as object, headers: { authorization: `Bearer ${token}` } });

    const changed = await put({ userName: 'kj', email: 'kj@example.com' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ userName: 'kj', email: 'kj@example.com', emailVerified: false, role: 'user' });
    expect((await put({ userName: 'kj' })).statusCode).toBe(200);
    expect((await put({ userName: 'Dorothy' })).statusCode).toBe(409);
    expect((await put({ email: 'bad' })).json()).toEqual({ message: 'Invalid email address' });
    expect((await put({})).statusCode).toBe(400);
    expect((await signIn('kj')).statusCode).toBe(200);
  });

  it('answers unknown API paths with 404 JSON and never leaks internals', async () => {
    const response = await t.app.inject({ url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('reports health of every component and serves the OpenAPI document', async () => {
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      database: { status: 'ok', driver: engine },
      storage: { status: 'ok', driver: 'local' },
      jobs: { status: 'ok' },
      mail: { status: 'ok', driver: 'outbox' },
    });
    const openapi = await t.app.inject({ url: '/api/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    const doc = openapi.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/signin', '/api/auth/signup', '/api/email/reset-password', '/api/health']));
    expect(health.headers['x-content-type-options']).toBe('nosniff');
    expect(health.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
