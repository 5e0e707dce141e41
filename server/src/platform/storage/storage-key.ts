import { RangeNotSatisfiableError, ValidationError } from '../errors/app-errors.js';
import type { ReadRange } from './storage.types.js';

const MAX_KEY_LENGTH = 512;
const MAX_SEGMENT_LENGTH = 200;
/**
 * Each `/`-separated segment: letters, digits and a few punctuation marks, not starting with
 * a dot (so no `.`/`..`, and no clash with the local driver's dot-prefixed temp files and
 * sidecar folder). Whatever passes this is safe as a path below the root and as an S3 key.
 */
const SEGMENT = /^[A-Za-z0-9_\-~+=,@()][A-Za-z0-9._\-~+=,@()]*$/;

/** Returns the key if it is safe to use; otherwise throws ValidationError. */
export function assertValidKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ValidationError(`A storage key must be 1 to ${MAX_KEY_LENGTH} characters long.`);
  }
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment.length > MAX_SEGMENT_LENGTH || !SEGMENT.test(segment)) {
      throw new ValidationError('That storage key is not allowed.');
    }
  }
  return key;
}

/** Rejects malformed read ranges (a caller's mistake) before any driver sees them. */
export function assertValidReadRange(range: ReadRange | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new ValidationError('That byte range is not valid.');
  }
}

/** Clamps a read range to an object of `size` bytes; a start past the end is a 416. */
export function resolveReadRange(range: ReadRange, size: number): { start: number; end: number } {
  if (range.start >= size) throw rangeNotSatisfiable(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

export function rangeNotSatisfiable(size: number): RangeNotSatisfiableError {
  return new RangeNotSatisfiableError('The requested range is not satisfiable.', size);
}

/** Content types travel in headers and signatures: printable ASCII only, bounded. */
export function assertValidContentType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  if (contentType.length === 0 || contentType.length > 255 || !/^[\x20-\x7e]+$/.test(contentType)) {
    throw new ValidationError('That content type is not allowed.');
  }
  return contentType;
}
