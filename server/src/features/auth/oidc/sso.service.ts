import { randomBytes } from 'node:crypto';
import { checkEmail, checkUserName } from '@encore/common/auth.rules';
import { USERNAME_MAX_LENGTH } from '@encore/common/constants';
import { ssoMessagesEn } from '@encore/common/sso.contract';
import { isUniqueViolation } from '../../../platform/db/pg-errors.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../../platform/errors/app-errors.js';
import type { AuthRepository, NewUser, UserRow } from '../auth.repository.js';
import type { UserRole } from '../auth.schema.js';
import type { SignedIn } from '../auth.service.js';
import type { SessionTokens } from '../session-tokens.js';
import type { OidcIdentitiesRepository } from './oidc-identities.repository.js';
import type { OidcIdentity, OidcIssuer } from './oidc-issuer.js';
import type { OidcStateCookie, PendingSignIn } from './oidc-state-cookie.js';

const TRY_AGAIN = 'That account changed while you were signing in. Please try again.';

/** How a new account shows an invitation: the address an admin's invitation went to. */
export interface InvitedAddress {
  email: string;
}

/** Who may join (SIGNUP or the admin page's setting), and the one way accounts are created under it. */
export interface AccountCreation {
  /** Throws a ForbiddenError saying why when sign-up is closed, or by invitation and `invitation` has none. */
  assertMaySignUp(invitation: InvitedAddress | undefined): Promise<void>;
  /** Creates the account as the mode allows (using up the address's invitation under invite). */
  createAccount(values: NewUser, invitation?: InvitedAddress): Promise<UserRow>;
}

export interface SsoServiceDeps {
  users: AuthRepository;
  identities: OidcIdentitiesRepository;
  tokens: SessionTokens;
  /** Undefined without OIDC_ISSUER_URL. */
  issuer: OidcIssuer | undefined;
  stateCookie: OidcStateCookie;
  oidc: { autoRegister: boolean; adminGroup: string | undefined };
  accounts: AccountCreation;
  /** Makes an account admin (the provider's admin group). */
  setRole: (userId: number, role: UserRole) => Promise<void>;
  /** Mails the owner of an unverified address a reset link naming the account (as Google sign-in does). */
  offerReset: (user: UserRow) => Promise<void>;
  /** Why an account may not sign in (disabled), or undefined. */
  refusal: (user: UserRow) => string | undefined;
}

/** A completed single sign-on: the session, and where the attempt was started from. */
export interface SsoSignedIn extends SignedIn {
  next: string;
  remember: boolean;
}

/**
 * Single sign-on: OpenID Connect, and a trusted reverse proxy's header. Both end in the
 * session token a password sign-in gives. Accounts are found by the provider's subject; the
 * first time, an existing account is joined only through an e-mail address both the provider
 * and Encore call verified (Google sign-in's rule); otherwise a new account is created when
 * sign-up allows it.
 */
export class SsoService {
  constructor(private readonly deps: SsoServiceDeps) {}

  /** The provider's address to open, and the Set-Cookie that keeps the attempt in the browser. */
  async beginOidc(next: string | undefined, remember: boolean): Promise<{ url: string; cookie: string }> {
    const issuer = this.requireIssuer();
    const { url, pending } = await issuer.begin(safeNext(next), remember);
    return { url, cookie: await this.deps.stateCookie.seal(pending) };
  }

  /** Completes the attempt the cookie carries with the provider's answer; the cookie is spent either way. */
  async completeOidc(query: string, cookieHeader: string | undefined): Promise<SsoSignedIn> {
    const issuer = this.requireIssuer();
    const pending: PendingSignIn | undefined = await this.deps.stateCookie.open(cookieHeader);
    if (!pending) throw new ValidationError(ssoMessagesEn.expired);
    const identity = await issuer.complete(query, pending);
    const user = await this.oidcAccount(identity);
    const signedIn = await this.session(user, pending.remember);
    return { ...signedIn, next: pending.next, remember: pending.remember };
  }

  get clearedStateCookie(): string {
    return this.deps.stateCookie.cleared();
  }

  /**
   * Signs in the user a trusted proxy named (the caller has checked the connection came from
   * it): an e-mail address (with an @) or a user name; an unknown one becomes an account when
   * sign-up is open, with the proxy's e-mail header as its address.
   */
  async proxySignIn(named: string, emailHeader: string | undefined): Promise<SignedIn> {
    const value = named.trim();
    const byEmail = value.includes('@');
    if ((byEmail ? checkEmail(value) : checkUserName(value)) !== null) throw new UnauthorizedError(ssoMessagesEn.proxyBadUser);
    let user = byEmail ? await this.deps.users.findByEmail(value) : await this.deps.users.findByUserName(value);
    if (!user) {
      const email = byEmail ? value : emailHeader?.trim();
      const valid = email !== undefined && checkEmail(email) === null;
      // The proxy vouches for the address: an invitation sent to it lets the account in.
      await this.deps.accounts.assertMaySignUp(valid ? { email } : undefined);
      if (!valid) throw new ValidationError(ssoMessagesEn.proxyNoEmail);
      if ((await this.deps.users.takenBy({ email })).email) throw new ConflictError(ssoMessagesEn.proxyEmailTaken);
      const userName = byEmail ? await this.freeUserName(value.split('@')[0] ?? '') : value;
      user = await this.withUniqueness(() => this.deps.accounts.createAccount({ userName, email, passwordHash: null }, { email }));
    }
    return this.session(user, true);
  }

  private async oidcAccount(identity: OidcIdentity): Promise<UserRow> {
    let user = (await this.deps.identities.signInUser(identity.issuer, identity.subject)) ?? (await this.firstSignIn(identity));
    // A disabled account is refused before the provider's groups change anything about it.
    const refusal = this.deps.refusal(user);
    if (refusal !== undefined) throw new ForbiddenError(refusal);
    const { adminGroup } = this.deps.oidc;
    if (adminGroup !== undefined && identity.groups.includes(adminGroup) && user.role !== 'admin') {
      await this.deps.setRole(user.id, 'admin');
      user = { ...user, role: 'admin' };
    }
    return user;
  }

  /** The subject is new: join the account of a doubly verified e-mail, or create one. */
  private async firstSignIn(identity: OidcIdentity): Promise<UserRow> {
    const { users, identities } = this.deps;
    const existing = identity.email === undefined ? undefined : await users.findByEmail(identity.email);
    if (existing && identity.email !== undefined) {
      if (!identity.emailVerified) throw new ConflictError(ssoMessagesEn.emailUnverifiedAtProvider);
      if (!existing.emailVerifiedAt) {
        await this.deps.offerReset(existing);
        throw new ConflictError(ssoMessagesEn.emailUnverifiedHere);
      }
      // Another subject of this issuer already signs into it: an address the provider handed on.
      if (await identities.hasIdentityAt(existing.id, identity.issuer)) throw new ConflictError(ssoMessagesEn.linkedElsewhere);
      const email = identity.email;
      const linked = await this.withUniqueness(() => identities.link(existing.id, identity.issuer, identity.subject, email));
      // The account's address changed or lost its verification meanwhile.
      if (!linked) throw new ConflictError(TRY_AGAIN);
      return existing;
    }
    if (!this.deps.oidc.autoRegister) throw new ForbiddenError(ssoMessagesEn.noAccount);
    // Only an address the provider calls verified can take up an invitation sent to it.
    const invitation = identity.email !== undefined && identity.emailVerified ? { email: identity.email } : undefined;
    await this.deps.accounts.assertMaySignUp(invitation);
    if (identity.email === undefined || checkEmail(identity.email) !== null) throw new ValidationError(ssoMessagesEn.noEmail);
    const email = identity.email;
    const userName = await this.freeUserName(identity.preferredUsername ?? identity.name ?? email.split('@')[0] ?? '');
    const user = await this.withUniqueness(() =>
      this.deps.accounts.createAccount(
        // The provider vouches for the address it calls verified.
        { userName, email, passwordHash: null, emailVerifiedAt: identity.emailVerified ? new Date() : null },
        invitation,
      ),
    );
    await this.withUniqueness(() => identities.attach(user.id, identity.issuer, identity.subject));
    return user;
  }

  private async session(user: UserRow, remember: boolean): Promise<SignedIn> {
    const refusal = this.deps.refusal(user);
    if (refusal !== undefined) throw new ForbiddenError(refusal);
    const token = await this.deps.tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion }, remember);
    return { token, user };
  }

  private requireIssuer(): OidcIssuer {
    if (!this.deps.issuer) throw new NotFoundError(ssoMessagesEn.notConfigured);
    return this.deps.issuer;
  }

  /** Two first sign-ins of one person at once: the unique indexes decide, and the loser is told. */
  private async withUniqueness<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(TRY_AGAIN);
      throw error;
    }
  }

  /** The wanted name if free, else the same with a number (as Google sign-in names people). */
  private async freeUserName(wanted: string): Promise<string> {
    const cleaned = wanted
      .replace(/\p{Cc}/gu, '')
      .trim()
      .replace(/\s+/g, ' ');
    const base = cleaned.slice(0, Math.min(40, USERNAME_MAX_LENGTH)) || 'listener';
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const candidate = attempt === 0 ? base : `${base} ${attempt + 1}`;
      if (!(await this.deps.users.takenBy({ userName: candidate })).userName) return candidate;
    }
    return `${base} ${randomBytes(3).toString('hex')}`;
  }
}

/** Only a path on this site, never another origin (the web app checks it again). */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
