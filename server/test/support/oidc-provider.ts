import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** What the provider says about an account (the standard claims Encore reads). */
export interface AccountClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface OidcProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Listen here (a restart on the same port); 0 or unset: any free port. */
  port?: number;
  accounts?: Record<string, AccountClaims>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, for tests: the
 * authorization code flow with PKCE, discovery, JWKS, userinfo. Its login page asks for a
 * user name only (any account of `accounts`) and grants what the client asks for.
 */
export interface OidcTestProvider {
  issuer: string;
  port: number;
  accounts: Map<string, AccountClaims>;
  stop(): Promise<void>;
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcTestProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
    findAccount: (_ctx, id) => {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['encore-test-provider-cookie-key'] },
    jwks: { keys: [signingKey] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    // Silence the provider's notices about its development defaults (keys, adapter).
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><p>${escapeHtml(String(out['error_description'] ?? out['error']))}</p>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const providerCallback = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void interactions(provider, accounts, req, res)
      .then((handled) => {
        if (!handled) providerCallback(req, res);
      })
      .catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
  });

  return {
    issuer,
    port,
    accounts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The login page (GET /interaction/:uid) and its form (POST /interaction/:uid/login). */
async function interactions(provider: Provider, accounts: Map<string, AccountClaims>, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url?.split('?')[0] ?? '');
  if (!match) return false;
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET' && !match[2]) {
    page(res, 200, loginPage(details.uid, details.params['client_id'] === undefined ? '' : String(details.params['client_id'])));
    return true;
  }
  if (req.method !== 'POST' || !match[2]) return false;
  const login = new URLSearchParams(await readBody(req)).get('login')?.trim() ?? '';
  if (!accounts.has(login)) {
    page(res, 200, loginPage(details.uid, '', `No account named "${login}".`));
    return true;
  }
  const grant = new provider.Grant({ accountId: login, clientId: String(details.params['client_id']) });
  grant.addOIDCScope(String(details.params['scope'] ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
  return true;
}

function loginPage(uid: string, client: string, problem = ''): string {
  return `<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>
<p>Sign in to ${escapeHtml(client)}</p>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>User name <input name="login" autocomplete="off" autofocus></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

function page(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(html);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * What a browser does between Encore's authorization URL and the provider sending it back:
 * follows the provider's redirects with its cookies, signs in as `login` on the login page,
 * and returns the query string the provider sent to the redirect URI.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
    remember(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next.search;
      url = next;
      init = {};
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${response.status} without a redirect or a login form: ${html.slice(0, 300)}`);
    url = new URL(action, url);
    init = { method: 'POST', body: new URLSearchParams({ login }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many redirects at the provider');
}
