import { NotFoundError, ValidationError } from '../../../platform/errors/app-errors.js';
import { fileTooLargeError } from '../../../platform/fs/byte-limit.js';
import type { Logger } from '../../../platform/logger.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import { UPLOAD_NOT_FOUND } from '../ingest/ingest.phases.js';
import type { IngestService, Uploader } from '../ingest/ingest.service.js';
import { parseTusId, uploadKeyOfTus, type TusId } from './tus-id.js';
import type { TusStaging } from './tus-stores.js';

/** How long an unfinished resumable upload may wait for its next bytes (since it began). */
export const RESUMABLE_UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

export const MISSING_FILE_NAME = 'Please name the file: the upload needs its file name (Upload-Metadata filename).';
export const MISSING_LENGTH = 'Please give the file size when the upload begins (Upload-Length).';

/** What the final PATCH of an upload learned: the song its bytes became. */
export interface FinishedUpload {
  songId: number;
  size: number;
}

export interface ResumableUploadDeps {
  ingest: IngestService;
  staging: TusStaging;
  storage: Storage;
  logger: Logger;
  maxUploadBytes: number;
  expiryMs?: number;
}

/**
 * The rules of resumable uploads (routes in tus.routes.ts speak the protocol): whose upload an
 * id is, what a new one must declare, and what a finished one becomes. A finished upload moves
 * to an upload key and goes through IngestService.complete, so its checks (content sniffing,
 * tags, covers, the song row, the song-added listeners) are upload-complete's own, and a
 * refused file leaves nothing behind.
 *
 * A finished upload leaves a receipt (`tus-done/<user id>/<hex>`, its size and song) for the
 * expiry period: a browser whose answer to the last PATCH was lost asks HEAD again and learns
 * the upload is whole, instead of sending the file a second time.
 */
export class ResumableUploadService {
  readonly expiryMs: number;

  constructor(private readonly deps: ResumableUploadDeps) {
    this.expiryMs = deps.expiryMs ?? RESUMABLE_UPLOAD_EXPIRY_MS;
  }

  /** The id's parts when it belongs to `userId`; NotFoundError otherwise (never 403: DECISIONS). */
  ownId(userId: number, id: string): TusId {
    const parsed = parseTusId(id);
    if (!parsed || parsed.userId !== userId) throw new NotFoundError(UPLOAD_NOT_FOUND);
    return parsed;
  }

  /** Checks what a new upload declares; the size limit is checked by the tus server before this. */
  assertCreatable(size: number | undefined, metadata: Record<string, string | null> | undefined): void {
    if (size === undefined) throw new ValidationError(MISSING_LENGTH);
    if (size > this.deps.maxUploadBytes) throw fileTooLargeError(this.deps.maxUploadBytes);
    if (!metadata?.['filename']?.trim()) throw new ValidationError(MISSING_FILE_NAME);
  }

  /** The uploader's storage quota for the declared length (413 with the figures; USER_STORAGE_MB). */
  async assertRoom(uploader: Uploader, size: number | undefined): Promise<void> {
    await this.deps.ingest.assertRoom(uploader, size);
  }

  /**
   * Turns a finished upload into a song: its bytes to the upload key, then upload-complete's
   * checks. Throws what they throw (413, 415, 422 ...), with nothing kept.
   */
  async finish(uploader: Uploader, id: string, size: number, metadata: Record<string, string | null> | undefined): Promise<FinishedUpload> {
    const tusId = this.ownId(uploader.id, id);
    const fileName = metadata?.['filename']?.trim() ?? '';
    const key = uploadKeyOfTus(tusId, fileName);
    try {
      await this.deps.staging.claim(id, key, this.deps.maxUploadBytes);
    } catch (error) {
      await Promise.all([this.deps.staging.discard(id), this.deps.storage.delete(key).catch(() => undefined)]);
      throw error;
    }
    // Refused bytes are removed by complete itself (the upload key and all it made).
    const { song } = await this.deps.ingest.complete(uploader, { fileName, s3key: key, folderId: folderIdOf(metadata) });
    const finished: FinishedUpload = { songId: song.id, size };
    await this.deps.storage
      .put(receiptKey(tusId), Buffer.from(JSON.stringify(finished)), { contentType: 'application/json' })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, id }, 'could not note a finished resumable upload'));
    return finished;
  }

  /** The song a finished upload of `userId` became, or undefined (unknown, unfinished or another's). */
  async finished(userId: number, id: string): Promise<FinishedUpload | undefined> {
    const parsed = parseTusId(id);
    if (!parsed || parsed.userId !== userId) return undefined;
    const key = receiptKey(parsed);
    if (!(await this.deps.storage.stat(key))) return undefined;
    const object = await this.deps.storage.get(key).catch(() => undefined);
    if (!object) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    try {
      const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<FinishedUpload>;
      return typeof value.songId === 'number' && typeof value.size === 'number' ? { songId: value.songId, size: value.size } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets what a refused upload left in staging. */
  async discard(id: string): Promise<void> {
    await this.deps.staging.discard(id);
  }

  /** The maintenance step: expired partial uploads and old receipts. Returns how many went. */
  async sweep(): Promise<number> {
    let removed = await this.deps.staging.sweep();
    const before = Date.now() - this.expiryMs;
    for await (const object of this.deps.storage.list(RECEIPTS)) {
      if (object.lastModified.getTime() >= before) continue;
      await this.deps.storage.delete(object.key);
      removed += 1;
    }
    return removed;
  }
}

const RECEIPTS = 'tus-done/';

function receiptKey(id: TusId): string {
  return `${RECEIPTS}${id.userId}/${id.hex}`;
}

function folderIdOf(metadata: Record<string, string | null> | undefined): number {
  const value = Number(metadata?.['folderId'] ?? 0);
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
