import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authModule } from '../../src/features/auth/auth.module.js';
import { AuthRepository } from '../../src/features/auth/auth.repository.js';
import { AuthService } from '../../src/features/auth/auth.service.js';
import { GoogleVerifier } from '../../src/features/auth/google-verifier.js';
import { argon2Hasher, type PasswordHasher } from '../../src/features/auth/password-hasher.js';
import { SessionTokens } from '../../src/features/auth/session-tokens.js';
import { RateLimiter } from '../../src/platform/rate-limit/rate-limiter.js';
import { sendMailJob } from '../../src/platform/mail/mail.jobs.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { waitForLink } from './auth-mail.js';

describe.each(engines)('sign-in rate limits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { SIGNIN_LIMIT_PER_USER: '3', SIGNIN_LIMIT_PER_IP: '8' });
  });
  afterAll(async () => t?.close());

  const signIn = (userName: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password }, remoteAddress: ip });

  it('locks a user name after repeated failures, from any address, with 429 and Retry-After', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'target', email: 'target@example.com', password: 'right password' } });
    for (let i = 0; i < 3; i += 1) expect((await signIn('target', 'wrong', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    const locked = await signIn('target', 'right password', '10.0.0.9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toMatch(/^Too many sign-in attempts/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not count successful sign-ins against the user name', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'regular', email: 'regular@example.com', password: 'right password' } });
    for (let i = 0; i < 5; i += 1) expect((await signIn('regular', 'right password', `10.1.0.${i + 1}`)).statusCode).toBe(200);
  });

  it('limits one address across user names', async () => {
    const answers = [];
    for (let i = 0; i < 9; i += 1) answers.push((await signIn(`someone${i}`, 'x', '192.0.2.7')).statusCode);
    expect(answers.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(answers[8]).toBe(429);
    expect((await signIn('someone-else', 'x', '192.0.2.8')).statusCode).toBe(401);
  });

  const reset = (email: string, token: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/email/reset-password', payload: { email, token, newPassword: 'brand new password' }, remoteAddress: ip });

  it('limits reset-password attempts from one address, with 429 and Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 9; i += 1) answers.push(await reset(`guess${i}@example.com`, 'A'.repeat(43), '203.0.113.5'));
    expect(answers.slice(0, 8).every((r) => r.statusCode === 400)).toBe(true);
    const limited = answers[8];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json<{ message: string }>().message).toMatch(/^Too many password reset attempts/);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect((await reset('guess@example.com', 'A'.repeat(43), '203.0.113.6')).statusCode).toBe(400);
  });

  it("locks an account's resets after repeated bad tokens from any address", async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'resetme', email: 'resetme@example.com', password: 'right password' } });
    await t.app.inject({ method: 'POST', url: '/api/email/forgot-password', payload: { email: 'resetme@example.com', userName: 'resetme' } });
    const link = await waitForLink(t.dataDir, 'resetme@example.com', '/reset-password');
    for (let i = 0; i < 3; i += 1) expect((await reset('resetme@example.com', `${'B'.repeat(42)}${i}`, `10.2.0.${i + 1}`)).statusCode).toBe(400);
    const locked = await reset('resetme@example.com', link.searchParams.get('token') ?? '', '10.2.0.9');
    expect(locked.statusCode).toBe(429);
  });
});

describe.each(engines)('reset-password work on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('checks the token before hashing the new password: a bogus token costs no argon2', async () => {
    const { platform } = t.app.encore;
    const hashed: string[] = [];
    const counting: PasswordHasher = {
      ...argon2Hasher,
      hash: (password) => {
        hashed.push(password);
        return argon2Hasher.hash(password);
      },
    };
    const auth: AuthService = new AuthService({
      repository: new AuthRepository(platform.database.db),
      tokens: new SessionTokens(platform.secrets.jwtKey, { long: '1h', short: '1h' }),
      google: new GoogleVerifier(undefined, 'http://127.0.0.1:9/certs'),
      rateLimiter: new RateLimiter(platform.database.db),
      limits: { signInPerIp: 100, signInPerUser: 100, windowMinutes: 15 },
      enqueueMail: async (message) => {
        await platform.jobs.send(sendMailJob, message);
      },
      enqueueResetRequest: (request): Promise<void> => auth.passwordReset.processResetRequest(request),
      publicUrl: 'http://encore.test',
      signUpPolicy: t.app.encore.modules.internals(authModule).signUpPolicy,
      hasher: counting,
    });
    await auth.signUp({ userName: 'counted', email: 'counted@example.com', password: 'counted password' });
    hashed.length = 0;

    for (const token of ['A'.repeat(43), 'B'.repeat(43)]) {
      await expect(auth.passwordReset.resetPassword({ email: 'counted@example.com', token, newPassword: 'bogus new one' }, '192.0.2.50')).rejects.toThrow(
        'This reset link is invalid or has expired.',
      );
    }
    expect(hashed).toEqual([]);

    // A real token does hash, once.
    await auth.passwordReset.forgotPassword({ email: 'counted@example.com', userName: 'counted' }, '192.0.2.50');
    const link = await waitForLink(t.dataDir, 'counted@example.com', '/reset-password');
    await auth.passwordReset.resetPassword(
      { email: 'counted@example.com', token: link.searchParams.get('token') ?? '', newPassword: 'the real new one' },
      '192.0.2.50',
    );
    expect(hashed).toEqual(['the real new one']);
  });
});
