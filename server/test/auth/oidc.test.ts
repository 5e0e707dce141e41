import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessagesEn } from '@encore/common/messages.en';
import { ssoMessagesEn } from '@encore/common/sso.contract';
import { eq } from 'drizzle-orm';
import { authModule } from '../../src/features/auth/auth.module.js';
import { oidcIdentities, users as usersTable } from '../../src/features/auth/auth.schema.js';
import { ACCOUNT_DISABLED_MESSAGE } from '../../src/features/auth/auth.service.js';
import { signInAtProvider, startOidcProvider, type OidcTestProvider } from '../support/oidc-provider.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { waitForLink } from './auth-mail.js';

const CLIENT_ID = 'encore';
const CLIENT_SECRET = 'encore-test-client-secret';
const REDIRECT_URI = 'http://encore.test/signin';

interface Attempt {
  url: URL;
  cookie: string;
}

/** The calls a browser makes: start (keeping the state cookie), the provider's pages, the callback. */
function ssoClient(t: () => TestApp) {
  const start = async (body: object = {}): Promise<Attempt> => {
    const response = await t().app.inject({ method: 'POST', url: '/api/auth/oidc/start', payload: body });
    expect(response.statusCode, response.body).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^encore_oidc=[^;]+; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax/);
    return { url: new URL(response.json<{ url: string }>().url), cookie: setCookie.split(';')[0] ?? '' };
  };
  const callback = (query: string, cookie?: string) =>
    t().app.inject({ method: 'POST', url: '/api/auth/oidc/callback', payload: { query }, headers: cookie ? { cookie } : {} });
  const signIn = async (login: string, body: object = {}) => {
    const attempt = await start(body);
    const query = await signInAtProvider(attempt.url.href, login, REDIRECT_URI);
    return callback(query, attempt.cookie);
  };
  const profile = (token: string) => t().app.inject({ url: '/api/auth/profile', headers: { authorization: `Bearer ${token}` } });
  return { start, callback, signIn, profile };
}

type SignInBody = { token: string; user: { userName: string; email: string }; next: string; rememberMe: boolean };

describe.each(engines)('OpenID Connect sign-in on %s', (engine) => {
  let provider: OidcTestProvider;
  let t: TestApp;
  const sso = ssoClient(() => t);
  const users = async () => t.app.encore.platform.database.db.select().from(usersTable);
  const identities = async () => t.app.encore.platform.database.db.select().from(oidcIdentities);

  beforeAll(async () => {
    provider = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
      accounts: {
        ada: { email: 'ada@idp.example', email_verified: true, name: 'Ada Lovelace', preferred_username: 'ada' },
        grace: { email: 'grace@idp.example', email_verified: true, preferred_username: 'grace', groups: ['staff', 'encore-admins'] },
        nomail: { preferred_username: 'nomail' },
      },
    });
    t = await startTestApp(engine, {
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_BUTTON_TEXT: 'Sign in with the test provider',
      OIDC_ADMIN_GROUP: 'encore-admins',
    });
    // The instance's first account (its admin) signs up with a password.
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { userName: 'owner', email: 'owner@example.test', password: 'owner password 1' },
    });
    expect(owner.statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  it('tells the web app the button to show', async () => {
    const config = (await t.app.inject({ url: '/api/config' })).json<{ sso: unknown }>();
    expect(config.sso).toEqual({ oidc: { buttonText: 'Sign in with the test provider' }, trustedHeader: false });
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const { url } = await sso.start({ next: '/playlists' });
    expect(url.origin).toBe(provider.issuer);
    const params = url.searchParams;
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('scope')).toBe('openid profile email groups');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
  });

  it('creates the account at the first sign-in and finds it again by subject', async () => {
    const response = await sso.signIn('ada', { next: '/playlists', rememberMe: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/^encore_oidc=; .*Max-Age=0/);
    const body = response.json<SignInBody>();
    expect(body).toMatchObject({ user: { userName: 'ada', email: 'ada@idp.example' }, next: '/playlists', rememberMe: false });
    // The same session a password sign-in gives: the profile answers, and the provider vouched for the address.
    const profile = await sso.profile(body.token);
    expect(profile.json()).toEqual({ userName: 'ada', email: 'ada@idp.example', emailVerified: true, role: 'user' });

    // The address changes at the provider: the subject still leads to the same account.
    provider.accounts.set('ada', { ...provider.accounts.get('ada'), email: 'ada.new@idp.example' });
    const again = await sso.signIn('ada');
    expect(again.json<SignInBody>().user.userName).toBe('ada');
    expect((await users()).filter((user) => user.userName.startsWith('ada'))).toHaveLength(1);
    expect((await identities()).filter((identity) => identity.subject === 'ada')).toEqual([expect.objectContaining({ issuer: provider.issuer })]);
  });

  it('makes a member of the admin group an admin, and leaves others users', async () => {
    const response = await sso.signIn('grace');
    expect(response.statusCode, response.body).toBe(200);
    const profile = await sso.profile(response.json<SignInBody>().token);
    expect(profile.json()).toMatchObject({ userName: 'grace', role: 'admin' });
    const [ada] = (await users()).filter((user) => user.userName === 'ada');
    expect(ada?.role).toBe('user');
  });

  it('refuses an answer whose state is not the one this browser started', async () => {
    const attempt = await sso.start();
    const query = new URLSearchParams(await signInAtProvider(attempt.url.href, 'ada', REDIRECT_URI));
    query.set('state', `${query.get('state') ?? ''}x`);
    const response = await sso.callback(`?${query.toString()}`, attempt.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: ssoMessagesEn.stateMismatch });
    expect(response.body).not.toMatch(/token/);
  });

  it('refuses a callback without the attempt cookie, or with a forged one', async () => {
    const attempt = await sso.start();
    const query = await signInAtProvider(attempt.url.href, 'ada', REDIRECT_URI);
    expect((await sso.callback(query)).json()).toEqual({ message: ssoMessagesEn.expired });
    const forged = `${attempt.cookie.slice(0, -4)}AAAA`;
    const response = await sso.callback(query, forged);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: ssoMessagesEn.expired });
  });

  it('refuses a replayed code', async () => {
    const attempt = await sso.start();
    const query = await signInAtProvider(attempt.url.href, 'ada', REDIRECT_URI);
    expect((await sso.callback(query, attempt.cookie)).statusCode).toBe(200);
    const replay = await sso.callback(query, attempt.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: ssoMessagesEn.codeRejected });
  });

  it("passes on the provider's refusal", async () => {
    const attempt = await sso.start();
    const state = attempt.url.searchParams.get('state') ?? '';
    const query = `?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${state}&iss=${encodeURIComponent(provider.issuer)}`;
    const response = await sso.callback(query, attempt.cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: ssoMessagesEn.refused.replace('{reason}', 'The user said no') });
  });

  it('needs an e-mail address for a new account', async () => {
    const response = await sso.signIn('nomail');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: ssoMessagesEn.noEmail });
    expect((await identities()).filter((identity) => identity.subject === 'nomail')).toHaveLength(0);
  });

  it('refuses a disabled account, with the reason', async () => {
    const db = t.app.encore.platform.database.db;
    await db.update(usersTable).set({ disabledAt: new Date() }).where(eq(usersTable.userName, 'ada'));
    try {
      const response = await sso.signIn('ada');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: ACCOUNT_DISABLED_MESSAGE });
    } finally {
      await db.update(usersTable).set({ disabledAt: null }).where(eq(usersTable.userName, 'ada'));
    }
  });

  describe('an existing account with the same e-mail', () => {
    const signUp = (userName: string, email: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email, password: `${userName} password 1` } });
    const signInWithPassword = (userName: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: `${userName} password 1` } });

    it('is not joined when the provider does not call the address verified', async () => {
      expect((await signUp('mallory', 'linus@idp.example')).statusCode).toBe(201);
      const link = await waitForLink(t.dataDir, 'linus@idp.example', '/verify-email');
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: link.searchParams.get('token') } })).statusCode).toBe(200);
      provider.accounts.set('linus', { email: 'linus@idp.example', email_verified: false, preferred_username: 'linus' });

      const response = await sso.signIn('linus');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: ssoMessagesEn.emailUnverifiedAtProvider });
      expect(response.body).not.toMatch(/token/);
      expect((await identities()).filter((identity) => identity.subject === 'linus')).toHaveLength(0);
      expect((await users()).filter((user) => user.email === 'linus@idp.example').map((user) => user.userName)).toEqual(['mallory']);
    });

    it("is not joined while Encore has not verified the account's address; its owner is mailed a reset link", async () => {
      // Someone signed up with the address and never verified it.
      expect((await signUp('squatter', 'joan@idp.example')).statusCode).toBe(201);
      provider.accounts.set('joan', { email: 'joan@idp.example', email_verified: true, preferred_username: 'joan' });

      const response = await sso.signIn('joan');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: ssoMessagesEn.emailUnverifiedHere });
      expect((await identities()).filter((identity) => identity.subject === 'joan')).toHaveLength(0);
      const reset = await waitForLink(t.dataDir, 'joan@idp.example', '/reset-password');
      expect(reset.searchParams.get('email')).toBe('joan@idp.example');
      expect((await signInWithPassword('squatter')).statusCode).toBe(200);
    });

    it('is joined when both the provider and Encore verified the address, and keeps its password', async () => {
      expect((await signUp('mary', 'mary@idp.example')).statusCode).toBe(201);
      const link = await waitForLink(t.dataDir, 'mary@idp.example', '/verify-email');
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: link.searchParams.get('token') } })).statusCode).toBe(200);
      provider.accounts.set('mary-at-idp', { email: 'MARY@idp.example', email_verified: true, preferred_username: 'mary.s' });

      const response = await sso.signIn('mary-at-idp');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<SignInBody>().user).toEqual({ userName: 'mary', email: 'mary@idp.example' });
      expect((await signInWithPassword('mary')).statusCode).toBe(200);

      // Another subject of the same provider with the address later: not a second way in.
      provider.accounts.set('mary-again', { email: 'mary@idp.example', email_verified: true });
      const other = await sso.signIn('mary-again');
      expect(other.statusCode).toBe(409);
      expect(other.json()).toEqual({ message: ssoMessagesEn.linkedElsewhere });
    });
  });
});

describe.each(engines)('OpenID Connect settings on %s', (engine) => {
  let provider: OidcTestProvider | undefined;
  afterAll(async () => {
    await provider?.stop();
  });

  it('answers 503 while the provider is down, and discovers it once it is up', async () => {
    const port = await freePort();
    const t = await startTestApp(engine, { OIDC_ISSUER_URL: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET });
    try {
      const down = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/start', payload: {} });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ message: ssoMessagesEn.unavailable });

      provider = await startOidcProvider({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUris: [REDIRECT_URI],
        port,
        accounts: { ada: { email: 'ada@idp.example', email_verified: true } },
      });
      const sso = ssoClient(() => t);
      const response = await sso.signIn('ada');
      expect(response.statusCode, response.body).toBe(200);

      // Down again between the start and the callback: 503, not a wrong-credentials answer.
      const attempt = await sso.start();
      const query = await signInAtProvider(attempt.url.href, 'ada', REDIRECT_URI);
      await provider.stop();
      provider = undefined;
      const late = await sso.callback(query, attempt.cookie);
      expect(late.statusCode).toBe(503);
      expect(late.json()).toEqual({ message: ssoMessagesEn.unavailable });
    } finally {
      await t.close();
    }
  });

  it('with OIDC_AUTO_REGISTER=false, signs in no one without an account', async () => {
    const idp = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
      accounts: { ada: { email: 'ada@idp.example', email_verified: true } },
    });
    const t = await startTestApp(engine, {
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_AUTO_REGISTER: 'false',
    });
    try {
      const response = await ssoClient(() => t).signIn('ada');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: ssoMessagesEn.noAccount });
      expect(await t.app.encore.platform.database.db.select().from(usersTable)).toHaveLength(0);
    } finally {
      await t.close();
      await idp.stop();
    }
  });

  it('with sign-up closed, refuses a new person but still signs in a linked one', async () => {
    const idp = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
      accounts: { ada: { email: 'ada@idp.example', email_verified: true }, bob: { email: 'bob@idp.example', email_verified: true } },
    });
    const env = { OIDC_ISSUER_URL: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET };
    const t = await startTestApp(engine, env);
    try {
      const sso = ssoClient(() => t);
      expect((await sso.signIn('ada')).statusCode).toBe(200);
      const policy = t.app.encore.modules.internals(authModule).signUpPolicy;
      await policy.setMode('closed');
      const refused = await sso.signIn('bob');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: authMessagesEn.signUpClosed });
      expect(refused.body).not.toMatch(/token/);
      expect((await t.app.encore.platform.database.db.select().from(usersTable)).map((user) => user.email)).toEqual(['ada@idp.example']);
      expect((await sso.signIn('ada')).statusCode).toBe(200);

      // By invitation: only the invited address, verified by the provider, and only once.
      await policy.setMode('invite');
      const uninvited = await sso.signIn('bob');
      expect(uninvited.statusCode).toBe(403);
      expect(uninvited.json()).toEqual({ message: authMessagesEn.signUpInviteOnly });
      const [owner] = await t.app.encore.platform.database.db.select().from(usersTable);
      await policy.invite('bob@idp.example', { id: owner?.id ?? 0, userName: owner?.userName ?? '' });
      idp.accounts.set('bob-unverified', { email: 'bob@idp.example', email_verified: false });
      expect((await sso.signIn('bob-unverified')).statusCode).toBe(403);
      const invited = await sso.signIn('bob');
      expect(invited.statusCode, invited.body).toBe(200);
      idp.accounts.set('bob-again', { email: 'bob@idp.example', email_verified: true });
      expect((await sso.signIn('bob-again')).statusCode).toBe(409);
    } finally {
      await t.close();
      await idp.stop();
    }
  });

  it('without OIDC_ISSUER_URL offers no button and answers 404', async () => {
    const t = await startTestApp(engine);
    try {
      expect((await t.app.inject({ url: '/api/config' })).json<{ sso: unknown }>().sso).toEqual({ oidc: null, trustedHeader: false });
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/start', payload: {} });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ssoMessagesEn.notConfigured });
    } finally {
      await t.close();
    }
  });
});

/** A port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
