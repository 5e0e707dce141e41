import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { UnauthorizedError } from '../../platform/errors/app-errors.js';

const ISSUER = 'encore';
const AUDIENCE = 'encore-web';

export interface SessionClaims {
  userId: number;
  tokenVersion: number;
}

/** What a verified token says: whose it is, and whether it was issued for "remember me". */
export interface VerifiedSession extends SessionClaims {
  remember: boolean;
}

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
      if (!Number.isSafeInteger(userId) || typeof tokenVersion !== 'number') throw new UnauthorizedError('Your session is invalid. Please sign in again.');
      // Tokens issued before the `rem` claim existed count as remembered (the long lifetime).
      return { userId, tokenVersion, remember: payload['rem'] !== false };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError('Your session has expired. Please sign in again.');
      if (error instanceof UnauthorizedError) throw error;
      throw new UnauthorizedError('Your session is invalid. Please sign in again.');
    }
  }
}
