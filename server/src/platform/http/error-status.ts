import type { AppError } from '../errors/app-errors.js';
import { RangeNotSatisfiableError, TooManyRequestsError, type ErrorKind } from '../errors/app-errors.js';

/** How the REST API answers each kind of error. */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  timeout: 408,
  conflict: 409,
  'too-large': 413,
  unsupported: 415,
  'range-not-satisfiable': 416,
  unprocessable: 422,
  'rate-limited': 429,
  unavailable: 503,
};

export interface HttpError {
  status: number;
  headers: Record<string, string>;
  body: { message: string };
}

/** The status, headers and `{ message }` body of a typed error. */
export function httpErrorOf(error: AppError): HttpError {
  const headers: Record<string, string> = {};
  if (error instanceof TooManyRequestsError) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error instanceof RangeNotSatisfiableError) headers['content-range'] = `bytes */${error.size}`;
  // A client that stalled mid-body cannot be trusted to frame the next request.
  if (error.kind === 'timeout') headers.connection = 'close';
  return { status: STATUS[error.kind], headers, body: { message: error.message } };
}
