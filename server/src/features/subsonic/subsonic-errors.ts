import { AppError, TooManyRequestsError } from '../../platform/errors/app-errors.js';
import { ClientCredentialsError } from '../auth/auth.port.js';

/** Subsonic's error codes (with the OpenSubsonic apiKeyAuthentication ones). */
export type SubsonicErrorCode = 0 | 10 | 20 | 30 | 40 | 41 | 42 | 43 | 44 | 50 | 70;

/** An error in Subsonic's terms: answered with HTTP 200 and `{ error: { code, message } }`. */
export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const missingParameter = (name: string): SubsonicError => new SubsonicError(10, `Required parameter is missing: ${name}`);
export const notFound = (what: string): SubsonicError => new SubsonicError(70, `${what} not found`);

const GENERIC = 'Something went wrong on our side. Please try again.';

/**
 * The one translation of errors for this API (Navidrome's mapToSubsonicError, in Encore's
 * kinds): whatever a port threw becomes a Subsonic code and a message a client may show.
 * `internal` is true for what should be logged.
 */
export function subsonicErrorOf(error: unknown): { code: SubsonicErrorCode; message: string; internal: boolean } {
  if (error instanceof SubsonicError) return { code: error.code, message: error.message, internal: false };
  if (error instanceof ClientCredentialsError) return { code: error.code, message: error.message, internal: false };
  // Sign-in rate limits answer as wrong credentials (clients know 40), with the limit's own words.
  if (error instanceof TooManyRequestsError) return { code: 40, message: error.message, internal: false };
  if (error instanceof AppError) {
    switch (error.kind) {
      case 'not-found':
        return { code: 70, message: error.message, internal: false };
      case 'unauthorized':
        return { code: 40, message: error.message, internal: false };
      case 'forbidden':
        return { code: 50, message: error.message, internal: false };
      default:
        return error.isRefusal ? { code: 0, message: error.message, internal: false } : { code: 0, message: GENERIC, internal: true };
    }
  }
  return { code: 0, message: GENERIC, internal: true };
}
