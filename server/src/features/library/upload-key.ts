import { randomUUID } from 'node:crypto';
import { safeFileName } from '../../platform/storage/safe-file-name.js';

/**
 * Upload keys are `uploads/<userId>/<uuid>/<safe file name>`. The user id in the key is how
 * upload-complete knows whose upload it is: a key naming another user is treated as unknown.
 *
 * An upload key is only ever a staging place: its signed PUT link keeps working until it
 * expires, so upload-complete moves the bytes to the song key `songs/<uuid>/<safe file name>`
 * (same uuid and name), which no link ever names, before it checks them. What a song serves
 * is what was checked; a replayed PUT is refused (see receiptKeyFor), or on S3 only recreates
 * a staged object nobody serves.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NAME = '[^/]{1,200}';
const UPLOAD_KEY = new RegExp(`^uploads/(\\d{1,10})/(${UUID})/(${NAME})$`);
/** A song's key (`songs/…`, or the upload key of a song from before song keys) closing a path. */
const SONG_KEY_AT_END = new RegExp(`(?:^|/)((?:songs|uploads/\\d{1,10})/${UUID}/${NAME})$`);

export function newUploadKey(userId: number, fileName: string): string {
  return `uploads/${userId}/${randomUUID()}/${safeFileName(fileName)}`;
}

/** Where the song of an upload key keeps its bytes; undefined for a malformed upload key. */
export function songKeyFor(uploadKey: string): string | undefined {
  const match = UPLOAD_KEY.exec(uploadKey);
  return match ? `songs/${match[2]}/${match[3]}` : undefined;
}

/**
 * The song key a URL path ends with: a play URL names it after a prefix that depends on the
 * storage (local `/api/storage/o/<key>`, S3 `/<bucket>/<key>` or `/<key>`). Undefined when the
 * path ends with nothing shaped like a song's key.
 */
export function songKeyAtEndOf(path: string): string | undefined {
  return SONG_KEY_AT_END.exec(path)?.[1];
}

/**
 * Where upload-complete notes that it took an upload key's bytes (before it moves them): a PUT
 * through the key's link after that is a replay, refused even once the song is deleted. Kept
 * for the life of the link, then swept. Undefined for a malformed upload key.
 */
export function receiptKeyFor(uploadKey: string): string | undefined {
  const match = UPLOAD_KEY.exec(uploadKey);
  return match ? `upload-receipts/${match[1]}/${match[2]}` : undefined;
}

/** The uploader's id of a well-formed upload key, or undefined. */
export function uploaderOf(key: string): number | undefined {
  const match = UPLOAD_KEY.exec(key);
  return match ? Number(match[1]) : undefined;
}

/** "01 - Song.final.mp3" -> "01 - Song.final": what to show when the tags give no title. */
export function nameWithoutExtension(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').trim();
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot).trim() : base;
  return stem || base || 'Untitled';
}
