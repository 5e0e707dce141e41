import type { Readable } from 'node:stream';

const heard = (): void => undefined;

/**
 * Listens to `stream`'s errors from now on, for a reader that comes only after some awaits (a
 * folder made, a file opened): a stream that fails meanwhile (a client resetting its upload, a
 * file gone) would otherwise emit an 'error' nobody hears, and that ends the process. The error
 * is not lost: the stream keeps it, and pipeline() or a for-await over it rejects with it.
 */
export function holdErrors<T extends Readable>(stream: T): T {
  if (!stream.listeners('error').includes(heard)) stream.on('error', heard);
  return stream;
}
