/**
 * Typed errors: services throw these; the one error handler maps them to a status and
 * `{ message }`. Anything else is a 500 whose body never shows internals.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Please sign in to continue.') {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class RangeNotSatisfiableError extends AppError {
  constructor(message: string, size: number) {
    super(416, message, { 'content-range': `bytes */${size}` });
  }
}
export class RequestTimeoutError extends AppError {
  constructor(message = 'The request took too long. Please try again.') {
    super(408, message, { connection: 'close' });
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
