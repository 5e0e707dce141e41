import { AppError, ValidationError } from '../errors/app-errors.js';

export const MULTIPART_INVALID = 'The form data is not valid multipart.';
export const MULTIPART_NO_BOUNDARY = 'The form data is not valid multipart: its Content-Type names no boundary (multipart/form-data; boundary=...).';
export const MULTIPART_UNFINISHED = 'The form data ended before its closing boundary. Please send the whole form again.';

/**
 * What a failure while reading a multipart body means to the client: a body that is not
 * multipart (no boundary, broken framing, cut off before its closing boundary) is a 400 with
 * a message, never a 500. Errors of the server's own (a disk write failing) and typed ones
 * pass through unchanged. Every multipart route maps its read failures through this last.
 */
export function multipartReadError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (code === 'FST_MP_PREMATURE_CLOSE' || /^Unexpected end of/.test(error.message)) return new ValidationError(MULTIPART_UNFINISHED);
  if (/boundary not found/i.test(error.message)) return new ValidationError(MULTIPART_NO_BOUNDARY);
  if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_INVALID_JSON_FIELD_ERROR')
    return new ValidationError(MULTIPART_INVALID);
  // The parser's own errors carry no system call; a file system's or a socket's do.
  if (syscall === undefined && (typeof code !== 'string' || !/^E[A-Z]+$/.test(code))) return new ValidationError(MULTIPART_INVALID);
  return error;
}
