import type { Readable } from 'node:stream';

/**
 * One object read from storage. `size` is the whole object's size; when `range` is set the
 * stream carries only bytes range.start..range.end (inclusive), i.e. end - start + 1 bytes.
 */
export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string | undefined;
  range?: { start: number; end: number };
}

/** A byte range to read: start and (optional, inclusive, clamped to the object) end. */
export interface ReadRange {
  start: number;
  end?: number;
}

/** One object as a listing shows it. */
export interface ListedObject {
  key: string;
  size: number;
  /** When its bytes were last written (or moved into place). */
  lastModified: Date;
}

/**
 * Where Encore keeps media: local disk (embedded) or any S3-compatible store (scaled out).
 * Keys look like `songs/<uuid>/<name>.mp3`; an unsafe key is a ValidationError.
 */
export interface Storage {
  readonly driver: 'local' | 's3';
  /** A URL the browser can PUT the bytes to, valid for expiresInSeconds. */
  presignPut(key: string, opts: { contentType?: string; expiresInSeconds: number }): Promise<string>;
  /**
   * A URL the browser can GET (and Range-request) the bytes from. downloadName makes it a
   * download (Content-Disposition: attachment, RFC 6266); contentType overrides the stored one.
   */
  presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; contentType?: string }): Promise<string>;
  /** Stores the bytes atomically; over maxBytes is a PayloadTooLargeError and nothing is kept. */
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string; maxBytes?: number }): Promise<void>;
  /** NotFoundError when missing; RangeNotSatisfiableError when range.start is past the end. */
  get(key: string, range?: ReadRange): Promise<StoredObject>;
  stat(key: string): Promise<{ size: number; contentType: string | undefined } | null>;
  /**
   * Runs `use` with the object as a file on this machine, for readers that must seek (ffmpeg
   * cannot read an MP4 whose index is at its end from a pipe). The local driver lends the
   * object's own file (read it, never write it); S3 downloads it to a temp file, removed when
   * `use` settles (and by removeStaleTempFiles after a crash). NotFoundError when missing.
   */
  withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Moves the object at `from` to `to`, which must not exist yet: NotFoundError when `from` is
   * missing, ConflictError when `to` exists (it is never overwritten). The object at `to` is the
   * bytes `from` held at one instant: a write to `from` during or after the move does not reach it.
   */
  move(from: string, to: string): Promise<void>;
  /** Every object whose key starts with `prefix` (e.g. `uploads/`), in pages, in no promised order. */
  list(prefix: string): AsyncIterable<ListedObject>;
  /**
   * Removes temp files of writes a crash interrupted (kill -9 mid-upload) that were last
   * written before `olderThan`; returns how many. Live writes keep their temp files fresh.
   */
  removeStaleTempFiles(olderThan: Date): Promise<number>;
  /** Health check: throws if the storage cannot be used. */
  check(): Promise<void>;
}
