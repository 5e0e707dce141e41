import { authMessagesEn } from '@encore/common/messages.en';
import { UnauthorizedError, ValidationError } from '../../platform/errors/app-errors.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { AuthRepository } from './auth.repository.js';
import { emailVerificationMail } from './email-verification.mail.js';
import { hashOneTimeToken, newOneTimeToken } from '../../platform/crypto/one-time-token.js';

/** Verification links live this long. */
export const VERIFICATION_TTL_HOURS = 24;

export interface EmailVerificationDeps {
  repository: AuthRepository;
  rateLimiter: RateLimiter;
  enqueueMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
}

interface Recipient {
  id: number;
  userName: string;
  email: string;
}

const TOO_MANY = 'Too many verification e-mails. Please try again in an hour.';

/**
 * Proving control of an account's e-mail address: a single-use, hashed, expiring link is
 * mailed at sign-up, on an e-mail change and on request; opening it marks the address verified.
 * Google sign-in links only to verified addresses (see the README).
 */
export class EmailVerificationService {
  private readonly rules: Record<'user' | 'ip', RateLimitRule> = {
    user: { name: 'verify-mail-user', limit: 3, windowSeconds: 3600, message: TOO_MANY },
    ip: { name: 'verify-mail-ip', limit: 10, windowSeconds: 3600, message: TOO_MANY },
  };

  constructor(private readonly deps: EmailVerificationDeps) {}

  /** Mails a fresh link to the account's current address. */
  async send(user: Recipient): Promise<void> {
    const { token, hash } = newOneTimeToken();
    const expiresAt = new Date(Date.now() + VERIFICATION_TTL_HOURS * 3600_000);
    await this.deps.repository.storeVerificationToken(user.id, user.email, hash, expiresAt);
    const link = `${this.deps.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    await this.deps.enqueueMail(emailVerificationMail({ to: user.email, userName: user.userName, link, hours: VERIFICATION_TTL_HOURS }));
  }

  /**
   * Like `send`, but counted against the user's hourly allowance and skipped past it, for mails
   * the user did not ask for by name (an e-mail change): the change itself still goes through.
   */
  async sendWithinAllowance(user: Recipient): Promise<void> {
    const count = await this.deps.rateLimiter.increment(this.rules.user, String(user.id));
    if (count <= this.rules.user.limit) await this.send(user);
  }

  /** "Resend verification e-mail" of a signed-in user. */
  async resend(userId: number, ip: string): Promise<{ success: true; message: string }> {
    await this.deps.rateLimiter.hit(this.rules.ip, ip);
    await this.deps.rateLimiter.hit(this.rules.user, String(userId));
    const user = await this.deps.repository.findById(userId);
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    if (user.emailVerifiedAt) return { success: true, message: authMessagesEn.emailAlreadyVerified };
    await this.send(user);
    return { success: true, message: authMessagesEn.verificationSent.replace('{email}', user.email) };
  }

  async verify(token: string): Promise<{ success: true; message: string }> {
    const userId = await this.deps.repository.consumeVerificationToken(hashOneTimeToken(token));
    if (userId === undefined) throw new ValidationError(authMessagesEn.verifyLinkInvalid);
    return { success: true, message: authMessagesEn.emailVerified };
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.deps.repository.pruneVerificationTokens(before);
  }
}
