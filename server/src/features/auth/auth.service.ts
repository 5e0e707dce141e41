import { createHash, randomBytes } from 'node:crypto';
import { RESET_TOKEN_TTL_MINUTES } from '@encore/common/constants';
import type { PublicUser } from '@encore/common/auth.contract';
import { ConflictError, UnauthorizedError, ValidationError } from '../../platform/http/errors.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { GoogleVerifier } from './google-verifier.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password-hasher.js';
import type { SessionTokens } from './session-tokens.js';
import { passwordResetMail } from './password-reset.mail.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';

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
  /** The address users reach Encore at, for links in e-mails. */
  publicUrl: string;
}

export interface AuthenticatedUser {
  id: number;
  userName: string;
  email: string;
}

const INVALID_RESET = 'This reset link is invalid or has expired.';
const FORGOT_ANSWER = 'If an account matches that e-mail and user name, a reset link is on its way.';

export class AuthService {
  private readonly rules: Record<'signInIp' | 'signInUser' | 'forgotIp' | 'forgotEmail', RateLimitRule>;

  constructor(private readonly deps: AuthServiceDeps) {
    const windowSeconds = deps.limits.windowMinutes * 60;
    const tooMany = `Too many sign-in attempts. Please wait ${deps.limits.windowMinutes} minutes and try again.`;
    this.rules = {
      signInIp: { name: 'signin-ip', limit: deps.limits.signInPerIp, windowSeconds, message: tooMany },
      signInUser: { name: 'signin-user', limit: deps.limits.signInPerUser, windowSeconds, message: tooMany },
      forgotIp: { name: 'forgot-ip', limit: 10, windowSeconds: 3600, message: 'Too many reset requests. Please try again in an hour.' },
      forgotEmail: { name: 'forgot-email', limit: 3, windowSeconds: 3600, message: 'Too many reset requests. Please try again in an hour.' },
    };
  }

  async signUp(input: { userName: string; email: string; password: string }): Promise<PublicUser> {
    await this.assertAvailable({ userName: input.userName, email: input.email });
    const passwordHash = await hashPassword(input.password);
    const user = await this.withUniqueness(() =>
      this.deps.repository.create({ userName: input.userName, email: input.email, passwordHash }),
    );
    return toPublic(user);
  }

  async signIn(input: { userName: string; password: string; rememberMe?: boolean }, ip: string): Promise<{ token: string; user: PublicUser }> {
    await this.deps.rateLimiter.hit(this.rules.signInIp, ip);
    // Only failures count against a user name, so its owner is not locked out by their own sign-ins.
    await this.deps.rateLimiter.assertBelow(this.rules.signInUser, input.userName);
    const user = await this.deps.repository.findByUserName(input.userName);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : (await verifyPassword(await dummyPasswordHash(), input.password), false);
    if (!user || !ok) {
      await this.deps.rateLimiter.increment(this.rules.signInUser, input.userName);
      throw new UnauthorizedError('Wrong username or password.');
    }
    await this.deps.rateLimiter.reset(this.rules.signInUser, input.userName);
    const token = await this.deps.tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion }, input.rememberMe ?? true);
    return { token, user: toPublic(user) };
  }

  async googleLogin(credential: string): Promise<{ token: string; user: PublicUser }> {
    const identity = await this.deps.google.verify(credential);
    const repo = this.deps.repository;
    let user = await repo.findByGoogleSubject(identity.subject);
    if (!user && identity.emailVerified) {
      const byEmail = await repo.findByEmail(identity.email);
      if (byEmail && !byEmail.googleSubject) user = await repo.update(byEmail.id, { googleSubject: identity.subject });
    }
    if (!user) {
      const taken = await repo.takenBy({ email: identity.email });
      if (taken.email) throw new ConflictError('An account with this e-mail already exists. Sign in with your password.');
      const userName = await this.freeUserName(identity.name ?? identity.email.split('@')[0] ?? 'listener');
      user = await this.withUniqueness(() =>
        repo.create({ userName, email: identity.email, passwordHash: null, googleSubject: identity.subject }),
      );
    }
    const token = await this.deps.tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion }, true);
    return { token, user: toPublic(user) };
  }

  /** Resolves a bearer token to its user; tokens from before a password reset are refused. */
  async authenticate(token: string): Promise<AuthenticatedUser> {
    const claims = await this.deps.tokens.verify(token);
    const user = await this.deps.repository.findById(claims.userId);
    if (!user || user.tokenVersion !== claims.tokenVersion) {
      throw new UnauthorizedError('Your session has ended. Please sign in again.');
    }
    return { id: user.id, userName: user.userName, email: user.email };
  }

  async getProfile(userId: number): Promise<PublicUser> {
    const user = await this.deps.repository.findById(userId);
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return toPublic(user);
  }

  async updateProfile(userId: number, changes: { userName?: string; email?: string }): Promise<PublicUser> {
    await this.assertAvailable(changes, userId);
    const user = await this.withUniqueness(() => this.deps.repository.update(userId, changes));
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return toPublic(user);
  }

  async forgotPassword(input: { email: string; userName: string }, ip: string): Promise<{ success: true; message: string }> {
    await this.deps.rateLimiter.hit(this.rules.forgotIp, ip);
    await this.deps.rateLimiter.hit(this.rules.forgotEmail, input.email);
    const user = await this.deps.repository.findByEmail(input.email);
    if (user && user.userName.toLowerCase() === input.userName.toLowerCase()) {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
      await this.deps.repository.storeResetToken(user.id, sha256(token), expiresAt);
      const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
      await this.deps.enqueueMail(passwordResetMail({ to: user.email, userName: user.userName, link, minutes: RESET_TOKEN_TTL_MINUTES }));
    }
    return { success: true, message: FORGOT_ANSWER };
  }

  async resetPassword(input: { email: string; token: string; newPassword: string }): Promise<{ success: true; message: string }> {
    const passwordHash = await hashPassword(input.newPassword);
    const ok = await this.deps.repository.consumeResetToken(sha256(input.token), input.email, passwordHash);
    if (!ok) throw new ValidationError(INVALID_RESET);
    return { success: true, message: 'Password reset successfully! Please log in with your new password.' };
  }

  async pruneExpired(now = new Date()): Promise<void> {
    await this.deps.repository.pruneResetTokens(new Date(now.getTime() - 24 * 3600_000));
    await this.deps.rateLimiter.prune(new Date(now.getTime() - 24 * 3600_000));
  }

  private async assertAvailable(fields: { userName?: string; email?: string }, exceptUserId?: number): Promise<void> {
    const taken = await this.deps.repository.takenBy(fields, exceptUserId);
    if (taken.userName) throw new ConflictError('That user name is already taken.');
    if (taken.email) throw new ConflictError('An account with that e-mail already exists.');
  }

  /** Two requests can pass assertAvailable together; the unique index decides, and loses no row. */
  private async withUniqueness<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('That user name or e-mail is already taken.');
      throw error;
    }
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

function toPublic(user: UserRow): PublicUser {
  return { userName: user.userName, email: user.email };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === '23505') return true;
  }
  return false;
}
