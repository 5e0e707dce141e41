import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * What a browser carries between "Sign in with SSO" and the provider sending it back: the
 * state, nonce and PKCE verifier of that one attempt, and where to go afterwards. It is kept
 * in the browser, not in a process (any process may take the callback), as a signed,
 * HttpOnly cookie that lives STATE_TTL_SECONDS and is cleared by the callback.
 */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  next: string;
  remember: boolean;
}

export const STATE_COOKIE = 'encore_oidc';
/** Only the calls of the flow receive it. */
export const STATE_COOKIE_PATH = '/api/auth/oidc';
export const STATE_TTL_SECONDS = 600;

const ISSUER = 'encore';
const AUDIENCE = 'encore-oidc-state';

export class OidcStateCookie {
  private readonly key: Uint8Array;

  /** `serverKey`: the session key; this cookie is signed with a key derived from it for this purpose alone. */
  constructor(
    serverKey: Uint8Array,
    private readonly secure: boolean,
  ) {
    this.key = new Uint8Array(createHmac('sha256', serverKey).update('encore:oidc-state').digest());
  }

  async seal(pending: PendingSignIn): Promise<string> {
    const value = await new SignJWT({ st: pending.state, no: pending.nonce, cv: pending.codeVerifier, nx: pending.next, rm: pending.remember })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${STATE_TTL_SECONDS}s`)
      .sign(this.key);
    return this.header(value, STATE_TTL_SECONDS);
  }

  /** The Set-Cookie value that removes the cookie. */
  cleared(): string {
    return this.header('', 0);
  }

  /** The attempt a request's cookie carries; undefined when absent, forged or expired. */
  async open(cookieHeader: string | undefined): Promise<PendingSignIn | undefined> {
    const value = readCookie(cookieHeader, STATE_COOKIE);
    if (!value) return undefined;
    try {
      const { payload } = await jwtVerify(value, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const { st, no, cv, nx, rm } = payload;
      if (typeof st !== 'string' || typeof no !== 'string' || typeof cv !== 'string' || typeof nx !== 'string' || typeof rm !== 'boolean') return undefined;
      return { state: st, nonce: no, codeVerifier: cv, next: nx, remember: rm };
    } catch {
      return undefined;
    }
  }

  private header(value: string, maxAge: number): string {
    return `${STATE_COOKIE}=${value}; Path=${STATE_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}

/** One cookie's value from a Cookie header (the last one of that name wins). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  let found: string | undefined;
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) found = part.slice(at + 1).trim();
  }
  return found;
}
