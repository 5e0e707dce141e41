import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

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
});
