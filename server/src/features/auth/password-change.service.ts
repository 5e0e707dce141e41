import { UnauthorizedError, ValidationError } from '../../platform/errors/app-errors.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { AuthRepository } from './auth.repository.js';
import type { SignedIn } from './auth.service.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionTokens } from './session-tokens.js';

export interface PasswordChangeDeps {
  repository: AuthRepository;
  tokens: SessionTokens;
  rateLimiter: RateLimiter;
  hasher: PasswordHasher;
  /** Sign-in's limits: wrong current passwords are held to the same numbers per account. */
  limits: { signInPerUser: number; windowMinutes: number };
  /** Returns once no process accepts the sessions the change ended. */
  credentialsChanged?: (userId: number) => Promise<void>;
}

const SESSION_ENDED = 'Your session has ended. Please sign in again.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';
export const NO_PASSWORD_YET =
  'This account signs in with Google and has no password yet. To set one, use "Forgot your current password?" to get a reset link by e-mail.';

/** Changing the password of the signed-in user with the current one (the profile page). */
export class PasswordChangeService {
  private readonly rule: RateLimitRule;

  constructor(private readonly deps: PasswordChangeDeps) {
    this.rule = {
      name: 'password-change-account',
      limit: deps.limits.signInPerUser,
      windowSeconds: deps.limits.windowMinutes * 60,
      message: `Too many wrong passwords. Please wait ${deps.limits.windowMinutes} minutes and try again.`,
    };
  }

  /**
   * Checks the current password (failures count against the account, like sign-in), stores
   * the new one and ends every other session; answers with a token for this session, of the
   * same lifetime ("remember me" or not) as the one it replaces. A wrong current password is a
   * 400, not a 401: the caller is still signed in and the web app must not sign them out.
   */
  async change(session: { userId: number; remember: boolean }, input: { currentPassword: string; newPassword: string }): Promise<SignedIn> {
    const key = String(session.userId);
    await this.deps.rateLimiter.assertBelow(this.rule, key);
    const user = await this.deps.repository.findById(session.userId);
    if (!user) throw new UnauthorizedError(SESSION_ENDED);
    if (!user.passwordHash) throw new ValidationError(NO_PASSWORD_YET);
    if (!(await this.deps.hasher.verify(user.passwordHash, input.currentPassword))) {
      await this.deps.rateLimiter.increment(this.rule, key);
      throw new ValidationError(WRONG_CURRENT_PASSWORD);
    }
    const changed = await this.deps.repository.changePassword(user.id, user.passwordHash, await this.deps.hasher.hash(input.newPassword));
    // Another request changed the password first: this one's current password is no longer it.
    if (!changed) throw new ValidationError(WRONG_CURRENT_PASSWORD);
    await this.deps.credentialsChanged?.(changed.id);
    await this.deps.rateLimiter.reset(this.rule, key);
    const token = await this.deps.tokens.issue({ userId: changed.id, tokenVersion: changed.tokenVersion }, session.remember);
    return { token, user: changed };
  }
}
