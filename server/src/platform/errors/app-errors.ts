/**
 * Errors of a kind: what went wrong in the terms of the domain, with no HTTP in them. Services,
 * repositories, storage, media and jobs throw these; each API translates a kind once (REST:
 * `platform/http/error-handler.ts`; a Subsonic API or a job's task error would map them its
 * own way). Anything that is not an AppError is a fault of ours.
 */
export type ErrorKind =
  /** The input breaks a rule. */
  | 'invalid'
  /** Nobody (or an ended session) is signed in. */
  | 'unauthorized'
  /** Signed in, but not allowed to do this. */
  | 'forbidden'
  | 'not-found'
  /** The client was too slow to send what it started. */
  | 'timeout'
  /** The state forbids it (taken name, already there). */
  | 'conflict'
  | 'too-large'
  /** A kind of content not accepted here (not audio). */
  | 'unsupported'
  /** A byte range outside the object. */
  | 'range-not-satisfiable'
  /** Content of an accepted kind that cannot be used (damaged media). */
  | 'unprocessable'
  | 'rate-limited'
  /** Something Encore relies on (Google's keys) cannot be reached now. */
  | 'unavailable';

export const ERROR_KINDS: readonly ErrorKind[] = [
  'invalid',
  'unauthorized',
  'forbidden',
  'not-found',
  'timeout',
  'conflict',
  'too-large',
  'unsupported',
  'range-not-satisfiable',
  'unprocessable',
  'rate-limited',
  'unavailable',
];

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }

  /** A refusal of what was asked (the caller can act on it), not a failure on Encore's side. */
  get isRefusal(): boolean {
    return this.kind !== 'unavailable';
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super('invalid', message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Please sign in to continue.') {
    super('unauthorized', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super('forbidden', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super('not-found', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super('conflict', message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('too-large', message);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super('unsupported', message);
  }
}
export class UnprocessableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('unprocessable', message, { cause });
  }
}
/** `size` is the whole object's, so a client can ask again for bytes that exist. */
export class RangeNotSatisfiableError extends AppError {
  constructor(
    message: string,
    readonly size: number,
  ) {
    super('range-not-satisfiable', message);
  }
}
export class RequestTimeoutError extends AppError {
  constructor(message = 'The request took too long. Please try again.') {
    super('timeout', message);
  }
}
export class TooManyRequestsError extends AppError {
  /** Whole seconds, at least 1, until trying again can succeed. */
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super('rate-limited', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super('unavailable', message);
  }
}
