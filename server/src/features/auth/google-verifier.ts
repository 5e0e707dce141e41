import { createRemoteJWKSet, jwtVerify, errors as joseErrors } from 'jose';
import { ServiceUnavailableError, UnauthorizedError } from '../../platform/errors/app-errors.js';

export interface GoogleIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | undefined;
}

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Verifies a Google Identity Services ID token: signature against Google's published keys
 * (fetched and cached from the JWKS address), issuer, audience and expiry.
 */
export class GoogleVerifier {
  private readonly keys;

  constructor(
    private readonly clientId: string | undefined,
    jwksUrl: string,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }

  get enabled(): boolean {
    return this.clientId !== undefined;
  }

  async verify(credential: string): Promise<GoogleIdentity> {
    if (!this.clientId) throw new ServiceUnavailableError('Google sign-in is not configured on this server.');
    let payload;
    try {
      ({ payload } = await jwtVerify(credential, this.keys, {
        issuer: GOOGLE_ISSUERS,
        audience: this.clientId,
        algorithms: ['RS256'],
      }));
    } catch (error) {
      // Not a verdict on the token: Google's keys could not be fetched or read.
      const unreachable = !(error instanceof joseErrors.JOSEError) || error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid;
      if (unreachable) {
        throw new ServiceUnavailableError('Google sign-in is unavailable right now. Please try again.');
      }
      throw new UnauthorizedError('Google login failed: the credential is invalid or has expired.');
    }
    if (typeof payload.sub !== 'string' || typeof payload['email'] !== 'string') {
      throw new UnauthorizedError('Google login failed: the credential has no account e-mail.');
    }
    return {
      subject: payload.sub,
      email: payload['email'],
      emailVerified: payload['email_verified'] === true || payload['email_verified'] === 'true',
      name: typeof payload['name'] === 'string' ? payload['name'] : undefined,
    };
  }
}
