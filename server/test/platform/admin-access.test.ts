import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

type OpenApi = { paths: Record<string, Record<string, unknown>> };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The access matrix of the admin calls: every operation of the OpenAPI document under
 * /api/admin/ (so a call added later is in it without a line here), called by each kind of
 * caller. Anyone but a signed-in admin gets exactly what an address that does not exist gets:
 * status, body and content type, whatever they send.
 */
describe.each(engines)('who may call /api/admin/* on %s', (engine) => {
  let t: TestApp;
  let operations: { method: Method; url: string }[];
  const tokens: Record<'admin' | 'user', string> = { admin: '', user: '' };

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const name of ['admin', 'user'] as const) {
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: name, email: `${name}@example.com`, password: 'access password 1' } });
      tokens[name] = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: name, password: 'access password 1' } })).json<{
        token: string;
      }>().token;
    }
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json<OpenApi>();
    operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, byMethod]) =>
        Object.keys(byMethod).map((method) => ({
          method: method.toUpperCase() as Method,
          // A real id of the admin's own account: a refusal must not depend on the target.
          url: path.replace('{id}', '1').replace('{queue}', 'mail.send'),
        })),
      );
  });
  afterAll(async () => t?.close());

  const unknownRoute = async (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/no-such-call', headers });

  it('has the calls of the admin page in it', () => {
    expect(operations.length).toBeGreaterThanOrEqual(16);
    expect(operations).toContainEqual({ method: 'GET', url: '/api/admin/users' });
    expect(operations).toContainEqual({ method: 'DELETE', url: '/api/admin/users/1' });
  });

  const callers: [string, () => Record<string, string>][] = [
    ['signed out', () => ({})],
    ['a malformed token', () => ({ authorization: 'Bearer not-a-token' })],
    ['a signed-in user', () => ({ authorization: `Bearer ${tokens.user}` })],
  ];

  it.each(callers)('answers %s the same 404 as an unknown address, for every call and body', async (_who, headers) => {
    const expected = await unknownRoute(headers());
    expect(expected.statusCode).toBe(404);
    for (const { method, url } of operations) {
      for (const payload of [undefined, { role: 'admin', disabled: true, email: 'x@example.com', signUp: 'open' }, { junk: '\u0000' }]) {
        const answer = await t.app.inject({ method, url, headers: headers(), ...(payload && method !== 'GET' ? { payload } : {}) });
        expect([method, url, answer.statusCode, answer.body, answer.headers['content-type']]).toEqual([
          method,
          url,
          404,
          expected.body,
          expected.headers['content-type'],
        ]);
      }
    }
    // Nothing was done: the user is still a user, the admin still there.
    const users = await t.app.inject({ url: '/api/admin/users', headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(
      users.json<{ users: { userName: string; role: string; disabled: boolean }[] }>().users.map((user) => [user.userName, user.role, user.disabled]),
    ).toEqual([
      ['admin', 'admin', false],
      ['user', 'user', false],
    ]);
  });

  it('lets the admin read every list', async () => {
    for (const { method, url } of operations.filter((operation) => operation.method === 'GET')) {
      const answer = await t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens.admin}` } });
      expect([url, answer.statusCode]).toEqual([url, 200]);
    }
  });
});
