import type { Song } from '@encore/common/library.contract';
import { AppError, NotFoundError } from '../../../platform/http/errors.js';
import type { Logger } from '../../../platform/logger.js';
import { DEFAULT_COVER_LIMITS, type CoverLimits } from '../../../platform/media/cover-image.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { LibraryRepository } from '../library.repository.js';
import type { LibraryService } from '../library.service.js';
import { newUploadKey, uploaderOf } from '../upload-key.js';
import { describeSong, locateUpload, readUploadTags, recordSong, sniffUpload, storeCover, UPLOAD_NOT_FOUND, type CoverKeys } from './ingest.phases.js';

/** Time for a slow connection to PUT the largest allowed file. */
export const PRESIGNED_PUT_TTL_SECONDS = 15 * 60;

export interface IngestServiceDeps {
  repository: LibraryRepository;
  library: LibraryService;
  storage: Storage;
  logger: Logger;
  maxUploadBytes: number;
  /** How long tag parsing may take before the file counts as damaged. */
  tagTimeoutMs: number;
  coverLimits?: CoverLimits;
}

export interface CompleteUpload {
  fileName: string;
  s3key: string;
  folderId: number;
}

/**
 * The three-step upload of SPEC 7: a presigned PUT URL, the browser's PUT, then
 * upload-complete, which runs the phases of ingest.phases.ts and leaves either a whole song or
 * nothing at all (no row, no object).
 */
export class IngestService {
  constructor(private readonly deps: IngestServiceDeps) {}

  async presign(userId: number, fileName: string, contentType: string | undefined): Promise<{ url: string; key: string }> {
    const key = newUploadKey(userId, fileName);
    const type = contentType?.trim() || undefined;
    const url = await this.deps.storage.presignPut(key, {
      expiresInSeconds: PRESIGNED_PUT_TTL_SECONDS,
      ...(type ? { contentType: type } : {}),
    });
    return { url, key };
  }

  /** `created` is false when this key was already ingested (a retried request): the same song comes back. */
  async complete(userId: number, upload: CompleteUpload): Promise<{ song: Song; created: boolean }> {
    const key = upload.s3key.trim();
    // Another user's key is as unknown as a key never issued: nothing is read, nothing deleted.
    if (uploaderOf(key) !== userId) throw new NotFoundError(UPLOAD_NOT_FOUND);
    const existing = await this.deps.repository.findByStorageKey(key);
    if (existing) return { song: await this.deps.library.get(existing.id, userId), created: false };

    const { row, created } = await this.ingest(userId, key, upload);
    return { song: await this.deps.library.get(row.id, userId), created };
  }

  private async ingest(userId: number, key: string, upload: CompleteUpload) {
    const { storage, logger } = this.deps;
    let cover: CoverKeys | null = null;
    try {
      const { size } = await locateUpload(storage, key, this.deps.maxUploadBytes);
      const audio = await sniffUpload(storage, key, size);
      const tags = await readUploadTags(storage, key, audio, size, this.deps.tagTimeoutMs);
      cover = await storeCover(storage, tags.picture, this.deps.coverLimits ?? DEFAULT_COVER_LIMITS, logger, { key });
      const values = describeSong({ ownerId: userId, fileName: upload.fileName, storageKey: key, size, folderId: upload.folderId }, audio, tags, cover);
      const recorded = await recordSong(this.deps.repository, values);
      // Lost a race with a concurrent request for the same key: its song stands, our cover goes.
      if (!recorded.created && cover) await this.discard([cover.coverKey, cover.coverThumbKey]);
      return recorded;
    } catch (error) {
      const keys = [key, ...(cover ? [cover.coverKey, cover.coverThumbKey] : [])];
      await this.discard(keys);
      if (error instanceof AppError && error.statusCode < 500) logger.info({ key, reason: error.message }, 'upload refused');
      throw error;
    }
  }

  private async discard(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.deps.logger.error({ err: result.reason, key: keys[index] }, 'could not remove a refused upload');
    });
  }
}
