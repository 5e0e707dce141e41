import { Transform, type TransformCallback } from 'node:stream';
import { PayloadTooLargeError } from '../errors/app-errors.js';

/** "10", "0.5": the limit in megabytes as a person would say it. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? String(Math.round(mb * 10) / 10) : String(Number(mb.toPrecision(2)));
}

export function fileTooLargeError(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`File is too large. The limit is ${formatMegabytes(maxBytes)} MB.`);
}

/**
 * A pass-through that fails with PayloadTooLargeError as soon as more than maxBytes have
 * flowed through it, so an oversized upload is stopped without reading the rest of it.
 */
export function createByteLimit(maxBytes: number): Transform & { readonly bytes: number } {
  let bytes = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(fileTooLargeError(maxBytes));
      else callback(null, chunk);
    },
  });
  return Object.defineProperty(limiter, 'bytes', { get: () => bytes }) as Transform & { readonly bytes: number };
}
