import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { UnauthorizedError } from '../../platform/errors/app-errors.js';

const ISSUER = 'encore';
const AUDIENCE = 'encore-web';
/** Tickets are signed with the session key but for another audience: neither passes for the other. */
const TICKET_AUDIENCE = 'encore-events';
/** How long an events ticket (the SSE stream's credential, carried in its URL) is valid. */
export const EVENTS_TICKET_TTL_SECONDS = 60;

export interface SessionClaims {
  userId: number;
  tokenVersion: number;
}

/** A session as far as its token says: whose, which token version, until when. */
export interface SessionWindow extends SessionClaims {
  expiresAt: Date;
}

/** What a verified token says: whose it is, until when, and whether it was issued for "remember me". */
export interface VerifiedSession extends SessionWindow {
  remember: boolean;
}

const INVALID = 'Your session is invalid. Please sign in again.';

/** Signed, expiring bearer tokens (HS256 with a key derived from JWT_SECRET). */
export class SessionTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly expiresIn: { long: string; short: string },
  ) {}

  issue(claims: SessionClaims, remember: boolean): Promise<string> {
    return new SignJWT({ ver: claims.tokenVersion, rem: remember })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(remember ? this.expiresIn.long : this.expiresIn.short)
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifiedSession> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const tokenVersion = payload['ver'];
      if (!Number.isSafeInteger(userId) || typeof tokenVersion !== 'number' || typeof payload.exp !== 'number') throw new UnauthorizedError(INVALID);
      // Tokens issued before the `rem` claim existed count as remembered (the long lifetime).
      return { userId, tokenVersion, expiresAt: new Date(payload.exp * 1000), remember: payload['rem'] !== false };
    } catch (error) {
      throw sessionError(error);
    }
  }

  /**
   * A credential for the events stream (EventSource sends no headers), valid
   * EVENTS_TICKET_TTL_SECONDS: it carries the session's token version and expiry, so the
   * stream it opens can end with the session.
   */
  issueTicket(session: SessionWindow, now = Date.now()): Promise<string> {
    const seconds = Math.floor(now / 1000);
    return new SignJWT({ ver: session.tokenVersion, sx: Math.floor(session.expiresAt.getTime() / 1000) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(session.userId))
      .setIssuer(ISSUER)
      .setAudience(TICKET_AUDIENCE)
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + EVENTS_TICKET_TTL_SECONDS)
      .sign(this.key);
  }

  /** The session a valid, unexpired ticket was issued from; 401 otherwise. */
  async verifyTicket(ticket: string): Promise<SessionWindow> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, { issuer: ISSUER, audience: TICKET_AUDIENCE, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const tokenVersion = payload['ver'];
      const sessionExpiry = payload['sx'];
      if (!Number.isSafeInteger(userId) || typeof tokenVersion !== 'number' || typeof sessionExpiry !== 'number') throw new UnauthorizedError(INVALID);
      return { userId, tokenVersion, expiresAt: new Date(sessionExpiry * 1000) };
    } catch (error) {
      throw sessionError(error);
    }
  }
}

function sessionError(error: unknown): UnauthorizedError {
  if (error instanceof joseErrors.JWTExpired) return new UnauthorizedError('Your session has expired. Please sign in again.');
  if (error instanceof UnauthorizedError) return error;
  return new UnauthorizedError(INVALID);
}
