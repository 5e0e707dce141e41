import { randomBytes } from 'node:crypto';
import { authMessagesEn } from '@encore/common/messages.en';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors/app-errors.js';
import { isUniqueViolation } from '../../platform/db/pg-errors.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import { LAST_SEEN_GRANULARITY_MS, type AuthRepository, type UserRow } from './auth.repository.js';
import type { UserRole } from './auth.schema.js';
import { EmailVerificationService } from './email-verification.service.js';
import type { CredentialCache } from './credential-cache.js';
import type { GoogleVerifier } from './google-verifier.js';
import { argon2Hasher, type PasswordHasher } from './password-hasher.js';
import { PasswordChangeService } from './password-change.service.js';
import { PasswordResetService, type ResetRequest } from './password-reset.service.js';
import type { SessionTokens, SessionWindow, VerifiedSession } from './session-tokens.js';
import type { SignUpPolicy } from './sign-up-policy.service.js';
import type { UsageMarks } from './usage-marks.js';

export interface AuthLimits {
  signInPerIp: number;
  signInPerUser: number;
  windowMinutes: number;
}

export interface AuthServiceDeps {
  repository: AuthRepository;
  tokens: SessionTokens;
  google: GoogleVerifier;
  rateLimiter: RateLimiter;
  limits: AuthLimits;
  /** Queues an e-mail for the mail worker. */
  enqueueMail: (message: MailMessage) => Promise<void>;
  /** Queues the work of a forgot-password request (see PasswordResetService). */
  enqueueResetRequest: (request: ResetRequest) => Promise<void>;
  /** The address users reach Encore at, for links in e-mails. */
  publicUrl: string;
  /** Who may create an account (SIGNUP) and the invitations. */
  signUpPolicy: SignUpPolicy;
  /** argon2id unless a test counts the work. */
  hasher?: PasswordHasher;
  /** Sessions verified before: a request with the same token costs a lookup (absent: every request is checked in full). */
  cache?: CredentialCache;
  /** "Last seen" of sessions verified from the cache, written at most once per LAST_SEEN_GRANULARITY_MS. */
  usage?: UsageMarks;
  /**
   * Returns once no process accepts what the user's credentials were before a change (a new
   * password, a role, a disabled or deleted account): called after the change is written.
   */
  credentialsChanged?: (userId: number) => Promise<void>;
}

export interface AuthenticatedUser {
  id: number;
  userName: string;
  email: string;
  /** 'admin' runs the instance (the /admin page and its calls); 'user' otherwise. */
  role: UserRole;
  /** Whether the token was issued for "remember me". */
  remember: boolean;
  /** The token's version and expiry: what an events ticket of this session carries. */
  tokenVersion: number;
  expiresAt: Date;
}

/** A session token and whose it is. */
export interface SignedIn {
  token: string;
  user: UserRow;
}

export const LAST_ADMIN_MESSAGE = authMessagesEn.lastAdmin;
export const ACCOUNT_DISABLED_MESSAGE = authMessagesEn.accountDisabled;

/** A disabled account cannot sign in (403 with a message saying so, not "wrong password"). */
function assertEnabled(user: UserRow): void {
  if (user.disabledAt) throw new ForbiddenError(ACCOUNT_DISABLED_MESSAGE);
}

/** Two requests can pass the availability check together; the unique index decides, and loses no row. */
export async function withUniqueness<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('That user name or e-mail is already taken.');
    throw error;
  }
}

/** What a request's session says, with its account as it is now. */
function sessionUser(user: UserRow, session: VerifiedSession): AuthenticatedUser {
  return {
    id: user.id,
    userName: user.userName,
    email: user.email,
    role: user.role,
    remember: session.remember,
    tokenVersion: session.tokenVersion,
    expiresAt: session.expiresAt,
  };
}

export class AuthService {
  private readonly rules: Record<'signInIp' | 'signInUser', RateLimitRule>;
  private readonly hasher: PasswordHasher;
  readonly verification: EmailVerificationService;
  readonly passwordReset: PasswordResetService;
  readonly passwordChange: PasswordChangeService;

  constructor(private readonly deps: AuthServiceDeps) {
    const windowSeconds = deps.limits.windowMinutes * 60;
    const tooMany = `Too many sign-in attempts. Please wait ${deps.limits.windowMinutes} minutes and try again.`;
    this.rules = {
      signInIp: { name: 'signin-ip', limit: deps.limits.signInPerIp, windowSeconds, message: tooMany },
      signInUser: { name: 'signin-user', limit: deps.limits.signInPerUser, windowSeconds, message: tooMany },
    };
    this.hasher = deps.hasher ?? argon2Hasher;
    this.verification = new EmailVerificationService(deps);
    this.passwordReset = new PasswordResetService({ ...deps, hasher: this.hasher });
    this.passwordChange = new PasswordChangeService({ ...deps, hasher: this.hasher });
  }

  /**
   * Creates an account, as SIGNUP allows (403 otherwise), and mails the link that verifies its
   * address, unless it is the address an invitation link was mailed to.
   */
  async signUp(input: { userName: string; email: string; password: string; invitation?: string | undefined }): Promise<UserRow> {
    const invitation = input.invitation ? { token: input.invitation } : undefined;
    await this.deps.signUpPolicy.assertMaySignUp(invitation, input.email);
    await this.assertAvailable({ userName: input.userName, email: input.email });
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.withUniqueness(() =>
      this.deps.signUpPolicy.createAccount({ userName: input.userName, email: input.email, passwordHash }, invitation),
    );
    if (!user.emailVerifiedAt) await this.verification.send(user);
    return user;
  }

  async signIn(input: { userName: string; password: string; rememberMe?: boolean }, ip: string): Promise<SignedIn> {
    await this.deps.rateLimiter.hit(this.rules.signInIp, ip);
    // Only failures count against a user name, so its owner is not locked out by their own sign-ins.
    await this.deps.rateLimiter.assertBelow(this.rules.signInUser, input.userName);
    const user = await this.deps.repository.findByUserName(input.userName);
    const ok = user?.passwordHash
      ? await this.hasher.verify(user.passwordHash, input.password)
      : (await this.hasher.verify(await this.hasher.dummyHash(), input.password), false);
    if (!user || !ok) {
      await this.deps.rateLimiter.increment(this.rules.signInUser, input.userName);
      throw new UnauthorizedError('Wrong username or password.');
    }
    assertEnabled(user);
    await this.deps.rateLimiter.reset(this.rules.signInUser, input.userName);
    const token = await this.deps.tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion }, input.rememberMe ?? true);
    return { token, user };
  }

  /**
   * Finds the account by Google subject first; else by e-mail, but only an account whose
   * address Encore has verified is linked. An unverified account with that address is neither
   * linked nor entered (409): whoever created it never proved the address, and linking would
   * let them into the Google user's account with their password.
   */
  async googleLogin(credential: string): Promise<SignedIn> {
    const identity = await this.deps.google.verify(credential);
    const repo = this.deps.repository;
    let user = await repo.findByGoogleSubject(identity.subject);
    if (!user) {
      const byEmail = await repo.findByEmail(identity.email);
      if (byEmail) {
        if (!byEmail.emailVerifiedAt) {
          if (identity.emailVerified) await this.passwordReset.offerResetToAddressOwner(byEmail);
          throw new ConflictError(authMessagesEn.googleEmailUnverified);
        }
        if (identity.emailVerified && !byEmail.googleSubject) {
          user = await this.withUniqueness(() => repo.linkGoogleSubject(byEmail.id, identity.subject, identity.email));
        }
        if (!user) throw new ConflictError('An account with this e-mail already exists. Sign in with your password.');
      }
    }
    if (!user) {
      const userName = await this.freeUserName(identity.name ?? identity.email.split('@')[0] ?? 'listener');
      // Under SIGNUP=invite, a live invitation to the address Google vouches for lets the account be made.
      const invitation = identity.emailVerified ? { email: identity.email } : undefined;
      await this.deps.signUpPolicy.assertMaySignUp(invitation);
      user = await this.withUniqueness(() =>
        this.deps.signUpPolicy.createAccount(
          {
            userName,
            email: identity.email,
            passwordHash: null,
            googleSubject: identity.subject,
            // Google vouches for the address it calls verified.
            emailVerifiedAt: identity.emailVerified ? new Date() : null,
          },
          invitation,
        ),
      );
    }
    assertEnabled(user);
    const token = await this.deps.tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion }, true);
    return { token, user };
  }

  /** Who may sign up, and the invitations. */
  get signUpPolicy(): SignUpPolicy {
    return this.deps.signUpPolicy;
  }

  /** Signs and reads session tokens and events tickets. */
  get tokens(): SessionTokens {
    return this.deps.tokens;
  }

  /** Resolves a bearer token to its user; tokens from before a password reset, or of a disabled account, are refused. */
  async authenticate(token: string): Promise<AuthenticatedUser> {
    const { cache, usage } = this.deps;
    const hit = cache?.session(token);
    if (hit) {
      const { account, session } = hit;
      if (session.expiresAt.getTime() > Date.now() && account.tokenVersion === session.tokenVersion && !account.disabledAt) {
        usage?.note('user', account.id);
        return sessionUser(account, session);
      }
      // Expired (or its account changed): the full check below says why.
      cache?.dropSession(token);
    }
    const mark = cache?.mark() ?? -1;
    const claims = await this.deps.tokens.verify(token);
    const user = await this.deps.repository.findById(claims.userId);
    if (!user || user.tokenVersion !== claims.tokenVersion || user.disabledAt) {
      throw new UnauthorizedError('Your session has ended. Please sign in again.');
    }
    if (!user.lastSeenAt || Date.now() - user.lastSeenAt.getTime() > LAST_SEEN_GRANULARITY_MS) {
      await this.deps.repository.touchLastSeen(user.id);
      usage?.wrote('user', user.id);
    } else usage?.wrote('user', user.id, user.lastSeenAt.getTime());
    cache?.rememberSession(mark, user, token, claims);
    return sessionUser(user, claims);
  }

  /** Returns once no process accepts the user's credentials as they were (see AuthServiceDeps.credentialsChanged). */
  async credentialsChanged(userId: number): Promise<void> {
    await this.deps.credentialsChanged?.(userId);
  }

  /** Whether a session still stands: not expired, and its user still on its token version. */
  async isLive(session: SessionWindow, now = Date.now()): Promise<boolean> {
    if (session.expiresAt.getTime() <= now) return false;
    const user = await this.deps.repository.findById(session.userId);
    return user?.tokenVersion === session.tokenVersion && !user.disabledAt;
  }

  /** Whether the account exists, is enabled and is an admin. */
  async isAdmin(userId: number): Promise<boolean> {
    const user = await this.deps.repository.findById(userId);
    return user?.role === 'admin' && !user.disabledAt;
  }

  /** Makes an account admin or user; demoting the last admin is refused (409), an unknown account is 404. */
  async setRole(userId: number, role: UserRole): Promise<UserRow> {
    const result = await this.deps.repository.setRole(userId, role);
    if (result === 'last-admin') throw new ConflictError(LAST_ADMIN_MESSAGE);
    if (!result) throw new NotFoundError('User not found.');
    await this.credentialsChanged(userId);
    return result;
  }

  async getProfile(userId: number): Promise<UserRow> {
    const user = await this.deps.repository.findById(userId);
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return user;
  }

  /**
   * Asks again who is at the keyboard before an irreversible step (deleting the account): the
   * password, or for an account without one (Google, single sign-on) its user name typed out.
   * Failures count against the sign-in limits of the account.
   */
  async confirmIdentity(userId: number, proof: { password?: string | undefined; userName?: string | undefined }, ip: string): Promise<void> {
    const user = await this.getProfile(userId);
    await this.deps.rateLimiter.hit(this.rules.signInIp, ip);
    await this.deps.rateLimiter.assertBelow(this.rules.signInUser, user.userName);
    const ok = user.passwordHash
      ? await this.hasher.verify(user.passwordHash, proof.password ?? '')
      : (proof.userName ?? '').trim().toLowerCase() === user.userName.toLowerCase();
    if (!ok) {
      await this.deps.rateLimiter.increment(this.rules.signInUser, user.userName);
      throw new ValidationError(user.passwordHash ? 'Wrong password.' : 'Type your user name to confirm.');
    }
  }

  /** A new e-mail address is unverified until its owner opens the link mailed to it. */
  async updateProfile(userId: number, changes: { userName?: string; email?: string }): Promise<UserRow> {
    await this.assertAvailable(changes, userId);
    const before = await this.deps.repository.findById(userId);
    const user = await this.withUniqueness(() => this.deps.repository.updateProfile(userId, changes));
    if (!before || !user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    await this.credentialsChanged(userId);
    if (before.email.toLowerCase() !== user.email.toLowerCase()) await this.verification.sendWithinAllowance(user);
    return user;
  }

  async pruneExpired(now = new Date()): Promise<void> {
    const dayAgo = new Date(now.getTime() - 24 * 3600_000);
    await this.passwordReset.pruneExpired(dayAgo);
    await this.verification.pruneExpired(dayAgo);
    await this.deps.signUpPolicy.pruneEnded(now);
    await this.deps.rateLimiter.prune(dayAgo);
  }

  private async assertAvailable(fields: { userName?: string; email?: string }, exceptUserId?: number): Promise<void> {
    const taken = await this.deps.repository.takenBy(fields, exceptUserId);
    if (taken.userName) throw new ConflictError('That user name is already taken.');
    if (taken.email) throw new ConflictError('An account with that e-mail already exists.');
  }

  private async withUniqueness<T>(write: () => Promise<T>): Promise<T> {
    return withUniqueness(write);
  }

  private async freeUserName(wanted: string): Promise<string> {
    const base = wanted.trim().replace(/\s+/g, ' ').slice(0, 40) || 'listener';
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const candidate = attempt === 0 ? base : `${base} ${attempt + 1}`;
      if (!(await this.deps.repository.takenBy({ userName: candidate })).userName) return candidate;
    }
    return `${base} ${randomBytes(3).toString('hex')}`;
  }
}
