import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../errors/app-errors.js';
import {
  ConflictError,
  ERROR_KINDS,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  RangeNotSatisfiableError,
  RequestTimeoutError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableError,
  UnsupportedMediaTypeError,
  ValidationError,
  type ErrorKind,
} from '../errors/app-errors.js';
import { installErrorHandler } from './error-handler.js';

/** One error of every kind, and what the REST API must answer for it. */
const CASES: Record<ErrorKind, { error: AppError; status: number; headers?: Record<string, string> }> = {
  invalid: { error: new ValidationError('Name is required.'), status: 400 },
  unauthorized: { error: new UnauthorizedError('Your session has ended. Please sign in again.'), status: 401 },
  forbidden: { error: new ForbiddenError('Only the uploader can delete this song.'), status: 403 },
  'not-found': { error: new NotFoundError('Song not found'), status: 404 },
  timeout: { error: new RequestTimeoutError(), status: 408, headers: { connection: 'close' } },
  conflict: { error: new ConflictError('That user name is already taken.'), status: 409 },
  'too-large': { error: new PayloadTooLargeError('File is too large. The limit is 100 MB.'), status: 413 },
  unsupported: { error: new UnsupportedMediaTypeError('Only audio files can be uploaded.'), status: 415 },
  'range-not-satisfiable': {
    error: new RangeNotSatisfiableError('The requested range is not available.', 100),
    status: 416,
    headers: { 'content-range': 'bytes */100' },
  },
  unprocessable: { error: new UnprocessableError('This audio file could not be read. It may be damaged.'), status: 422 },
  'rate-limited': { error: new TooManyRequestsError('Too many attempts.', 12.2), status: 429, headers: { 'retry-after': '13' } },
  unavailable: { error: new ServiceUnavailableError('Google sign-in is not available right now.'), status: 503 },
};

const app = Fastify();

beforeAll(async () => {
  installErrorHandler(app);
  app.get('/throw/:kind', async (request) => {
    throw CASES[(request.params as { kind: ErrorKind }).kind].error;
  });
  app.get('/crash', async () => {
    throw new Error('password=hunter2 at /srv/encore');
  });
  await app.ready();
});

afterAll(() => app.close());

describe('the REST error handler', () => {
  it('has an answer for every kind', () => {
    expect(Object.keys(CASES).sort()).toEqual([...ERROR_KINDS].sort());
  });

  for (const kind of ERROR_KINDS) {
    it(`answers a ${kind} error with its status, message and headers`, async () => {
      const { error, status, headers } = CASES[kind];
      expect(error.kind).toBe(kind);
      const response = await app.inject({ method: 'GET', url: `/throw/${kind}` });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ message: error.message });
      for (const [name, value] of Object.entries(headers ?? {})) expect(response.headers[name], name).toBe(value);
      if (kind !== 'rate-limited') expect(response.headers['retry-after']).toBeUndefined();
    });
  }

  it('rounds retry-after up to at least one second', () => {
    expect(new TooManyRequestsError('Slow down.', 0).retryAfterSeconds).toBe(1);
    expect(new TooManyRequestsError('Slow down.', 59.01).retryAfterSeconds).toBe(60);
  });

  it('answers anything untyped with a 500 that shows nothing of it', async () => {
    const response = await app.inject({ method: 'GET', url: '/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
  });
});
