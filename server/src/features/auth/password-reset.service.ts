import { RESET_TOKEN_TTL_MINUTES } from '@encore/common/constants';
import { ValidationError } from '../../platform/errors/app-errors.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { AuthRepository } from './auth.repository.js';
import { hashOneTimeToken, newOneTimeToken } from '../../platform/crypto/one-time-token.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordResetMail } from './password-reset.mail.js';

export interface ResetRequest {
  email: string;
  userName: string;
}

export interface PasswordResetDeps {
  repository: AuthRepository;
  rateLimiter: RateLimiter;
  hasher: PasswordHasher;
  /** Returns once no process accepts the sessions the reset ended. */
  credentialsChanged?: (userId: number) => Promise<void>;
  /** Sign-in's limits: reset attempts are held to the same numbers. */
  limits: { signInPerIp: number; signInPerUser: number; windowMinutes: number };
  enqueueMail: (message: MailMessage) => Promise<void>;
  /** Queues the look-up and mail of a reset request as a background job. */
  enqueueResetRequest: (request: ResetRequest) => Promise<void>;
  publicUrl: string;
}

const INVALID_RESET = 'This reset link is invalid or has expired.';
const FORGOT_ANSWER = 'If an account matches that e-mail and user name, a reset link is on its way.';

/** Forgot password (mail a link) and reset password (use it). */
export class PasswordResetService {
  private readonly rules: Record<'forgotIp' | 'forgotEmail' | 'resetIp' | 'resetAccount', RateLimitRule>;

  constructor(private readonly deps: PasswordResetDeps) {
    const windowSeconds = deps.limits.windowMinutes * 60;
    const tooManyResets = `Too many password reset attempts. Please wait ${deps.limits.windowMinutes} minutes and try again.`;
    const tooManyRequests = 'Too many reset requests. Please try again in an hour.';
    this.rules = {
      forgotIp: { name: 'forgot-ip', limit: 10, windowSeconds: 3600, message: tooManyRequests },
      forgotEmail: { name: 'forgot-email', limit: 3, windowSeconds: 3600, message: tooManyRequests },
      resetIp: { name: 'reset-ip', limit: deps.limits.signInPerIp, windowSeconds, message: tooManyResets },
      resetAccount: { name: 'reset-account', limit: deps.limits.signInPerUser, windowSeconds, message: tooManyResets },
    };
  }

  /**
   * Answers at once, the same for every account that exists or not: the look-up, token and mail
   * happen in a background job, so nothing about the account shows in the answer or its timing.
   */
  async forgotPassword(input: ResetRequest, ip: string): Promise<{ success: true; message: string }> {
    await this.deps.rateLimiter.hit(this.rules.forgotIp, ip);
    await this.deps.rateLimiter.hit(this.rules.forgotEmail, input.email);
    await this.deps.enqueueResetRequest({ email: input.email, userName: input.userName });
    return { success: true, message: FORGOT_ANSWER };
  }

  /**
   * Google has just vouched that the caller owns `user`'s address, but the account never
   * verified it (it may be someone else's squat): mail that address a reset link naming the
   * account, so its owner can take it back. Held to forgot-password's per-address limit; past
   * it nothing more is sent and the caller still gets the advice.
   */
  async offerResetToAddressOwner(user: { email: string; userName: string }): Promise<void> {
    const sent = await this.deps.rateLimiter.increment(this.rules.forgotEmail, user.email);
    if (sent <= this.rules.forgotEmail.limit) await this.deps.enqueueResetRequest({ email: user.email, userName: user.userName });
  }

  /** The job behind forgotPassword: mails a link when the e-mail and user name match an account. */
  async processResetRequest(request: ResetRequest): Promise<void> {
    const user = await this.deps.repository.findByEmail(request.email);
    if (!user || user.userName.toLowerCase() !== request.userName.toLowerCase()) return;
    const { token, hash } = newOneTimeToken();
    const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
    await this.deps.repository.storeResetToken(user.id, hash, expiresAt);
    const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
    await this.deps.enqueueMail(passwordResetMail({ to: user.email, userName: user.userName, link, minutes: RESET_TOKEN_TTL_MINUTES }));
  }

  /**
   * Rate limited per address (every attempt) and per account (failures), like sign-in. The
   * token is checked before the new password is hashed, so a guessed token costs no argon2.
   */
  async resetPassword(input: { email: string; token: string; newPassword: string }, ip: string): Promise<{ success: true; message: string }> {
    await this.deps.rateLimiter.hit(this.rules.resetIp, ip);
    await this.deps.rateLimiter.assertBelow(this.rules.resetAccount, input.email);
    const tokenHash = hashOneTimeToken(input.token);
    const live = await this.deps.repository.isLiveResetToken(tokenHash, input.email);
    // Checked again inside consumeResetToken: two requests with one token cannot both win.
    const userId = live ? await this.deps.repository.consumeResetToken(tokenHash, input.email, await this.deps.hasher.hash(input.newPassword)) : undefined;
    if (userId === undefined) {
      await this.deps.rateLimiter.increment(this.rules.resetAccount, input.email);
      throw new ValidationError(INVALID_RESET);
    }
    await this.deps.credentialsChanged?.(userId);
    await this.deps.rateLimiter.reset(this.rules.resetAccount, input.email);
    return { success: true, message: 'Password reset successfully! Please log in with your new password.' };
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.deps.repository.pruneResetTokens(before);
  }
}
