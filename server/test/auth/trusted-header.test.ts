import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessagesEn } from '@encore/common/messages.en';
import { ssoMessagesEn } from '@encore/common/sso.contract';
import { authModule } from '../../src/features/auth/auth.module.js';
import { users as usersTable } from '../../src/features/auth/auth.schema.js';
import { loadConfig } from '../../src/config.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

type SignInBody = { token: string; user: { userName: string; email: string } };

describe.each(engines)("sign-in by a trusted proxy's header on %s", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, {
      TRUSTED_AUTH_HEADER: 'Remote-User',
      // A block, an address, and a loopback address the real-socket test connects from.
      TRUSTED_PROXY_IPS: '10.1.0.0/16, 192.0.2.7, 127.0.0.2',
      // X-Forwarded-For is believed for request.ip: it must still not make a client a proxy.
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const proxySignIn = (remoteAddress: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/proxy-signin', remoteAddress, headers });
  const users = async () => t.app.encore.platform.database.db.select().from(usersTable);

  it('tells the web app to try it', async () => {
    expect((await t.app.inject({ url: '/api/config' })).json<{ sso: unknown }>().sso).toEqual({ oidc: null, trustedHeader: true });
  });

  it('from a trusted address, creates the named user with the e-mail header and signs them in', async () => {
    const response = await proxySignIn('10.1.42.9', { 'remote-user': 'alice', 'remote-email': 'alice@home.example' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<SignInBody>();
    expect(body.user).toEqual({ userName: 'alice', email: 'alice@home.example' });
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${body.token}` } });
    expect(profile.json()).toMatchObject({ userName: 'alice', role: 'admin' });

    // Again, from the other trusted address and by e-mail: the same account.
    const again = await proxySignIn('192.0.2.7', { 'remote-user': 'ALICE@home.example' });
    expect(again.json<SignInBody>().user.userName).toBe('alice');
    expect(await users()).toHaveLength(1);
  });

  it('ignores the header from any other address', async () => {
    for (const address of ['203.0.113.9', '10.2.0.1', '192.0.2.8', '::1']) {
      const response = await proxySignIn(address, { 'remote-user': 'alice' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: ssoMessagesEn.proxyUntrusted });
    }
  });

  it('does not believe X-Forwarded-For that names a trusted proxy', async () => {
    const response = await proxySignIn('203.0.113.9', { 'remote-user': 'alice', 'x-forwarded-for': '10.1.0.1' });
    expect(response.statusCode).toBe(401);
  });

  it('from a trusted address without the header, signs no one in', async () => {
    const response = await proxySignIn('10.1.0.1', {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: ssoMessagesEn.proxyUntrusted });
  });

  it("refuses a new user without an e-mail, or with another account's, and a name that is no name", async () => {
    const noEmail = await proxySignIn('10.1.0.1', { 'remote-user': 'bob' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toEqual({ message: ssoMessagesEn.proxyNoEmail });
    const taken = await proxySignIn('10.1.0.1', { 'remote-user': 'bob', 'remote-email': 'alice@home.example' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: ssoMessagesEn.proxyEmailTaken });
    const long = await proxySignIn('10.1.0.1', { 'remote-user': 'x'.repeat(200), 'remote-email': 'x@home.example' });
    expect(long.statusCode).toBe(401);
    expect(long.json()).toEqual({ message: ssoMessagesEn.proxyBadUser });
    expect((await users()).map((user) => user.userName)).toEqual(['alice']);
  });

  it('with sign-up closed, refuses an unknown user and still signs in a known one', async () => {
    const policy = t.app.encore.modules.internals(authModule).signUpPolicy;
    await policy.setMode('closed');
    try {
      const refused = await proxySignIn('10.1.0.1', { 'remote-user': 'dave', 'remote-email': 'dave@home.example' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: authMessagesEn.signUpClosed });
      expect((await proxySignIn('10.1.0.1', { 'remote-user': 'alice' })).statusCode).toBe(200);
    } finally {
      await policy.setMode('open');
    }
  });

  it('over a real connection, trusts the socket address only', async () => {
    const address = await t.app.listen({ port: 0, host: '0.0.0.0' });
    const { port } = t.app.server.address() as AddressInfo;
    expect(address).toContain(String(port));
    const post = (localAddress: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            localAddress,
            method: 'POST',
            path: '/api/auth/proxy-signin',
            headers: { 'remote-user': 'carol', 'remote-email': 'carol@home.example', 'x-forwarded-for': '10.1.0.1' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect((await post('127.0.0.1')).status).toBe(401);
    const trusted = await post('127.0.0.2');
    expect(trusted.status, trusted.body).toBe(200);
    expect(JSON.parse(trusted.body)).toMatchObject({ user: { userName: 'carol', email: 'carol@home.example' } });
  });

  it('refuses a user or e-mail header that came more than once, rather than joining the lines into one name', async () => {
    const before = (await users()).map((user) => user.userName);
    const refuse = (status: number, body: string) => {
      expect(status, body).toBe(401);
      expect(JSON.parse(body)).toEqual({ message: ssoMessagesEn.proxyRepeatedHeader });
    };
    // Over a real connection (the server listens since the test above): Node itself would join the lines as "alice, mallory".
    const { port } = t.app.server.address() as AddressInfo;
    const post = (headers: Record<string, string | string[]>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, localAddress: '127.0.0.2', method: 'POST', path: '/api/auth/proxy-signin', headers }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const twoUsers = await post({ 'remote-user': ['alice', 'mallory'], 'remote-email': 'mallory@home.example' });
    refuse(twoUsers.status, twoUsers.body);
    const twoEmails = await post({ 'remote-user': 'erin', 'remote-email': ['erin@home.example', 'other@home.example'] });
    refuse(twoEmails.status, twoEmails.body);
    const injected = await t.app.inject({
      method: 'POST',
      url: '/api/auth/proxy-signin',
      remoteAddress: '10.1.0.1',
      headers: { 'remote-user': ['alice', 'alice'] },
    });
    refuse(injected.statusCode, injected.body);
    expect((await users()).map((user) => user.userName)).toEqual(before);
  });
});

describe('single sign-on settings', () => {
  it('refuse a header without proxy addresses, and addresses that are not', () => {
    expect(() => loadConfig({ TRUSTED_AUTH_HEADER: 'Remote-User' })).toThrow(/TRUSTED_PROXY_IPS: required/);
    expect(() => loadConfig({ TRUSTED_AUTH_HEADER: 'Remote-User', TRUSTED_PROXY_IPS: '10.0.0.0/33' })).toThrow(/"10.0.0.0\/33" is not/);
    expect(() => loadConfig({ TRUSTED_AUTH_HEADER: 'Remote-User', TRUSTED_PROXY_IPS: 'proxy.local' })).toThrow(/"proxy.local" is not/);
    expect(() => loadConfig({ TRUSTED_AUTH_HEADER: 'Remote User', TRUSTED_PROXY_IPS: '10.0.0.1' })).toThrow(/not a header name/);
    expect(loadConfig({ TRUSTED_AUTH_HEADER: 'Remote-User', TRUSTED_PROXY_IPS: ' fd00::/8 ,10.0.0.1' }).trustedAuth).toEqual({
      header: 'remote-user',
      emailHeader: 'remote-email',
      proxies: ['fd00::/8', '10.0.0.1'],
    });
  });

  it('need a client id with an issuer, and always ask for openid', () => {
    expect(() => loadConfig({ OIDC_ISSUER_URL: 'https://auth.example.com' })).toThrow(/OIDC_CLIENT_ID: required/);
    expect(() => loadConfig({ OIDC_ISSUER_URL: 'auth.example.com', OIDC_CLIENT_ID: 'encore' })).toThrow(/OIDC_ISSUER_URL must be a URL/);
    const config = loadConfig({ OIDC_ISSUER_URL: 'https://auth.example.com', OIDC_CLIENT_ID: 'encore', OIDC_SCOPES: 'email profile' });
    expect(config.oidc).toMatchObject({ clientSecret: undefined, buttonText: undefined, autoRegister: true, scopes: ['openid', 'email', 'profile'] });
  });
});
