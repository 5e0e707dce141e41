import { AppError, ConflictError, NotFoundError } from '../../../platform/errors/app-errors.js';
import type { Logger } from '../../../platform/logger.js';
import type { AudioTags } from '../../../platform/media/audio-tags.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import { storageSource } from '../../../platform/media/byte-source.js';
import { DEFAULT_COVER_LIMITS, type CoverLimits } from '../../../platform/media/cover-image.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { SongRecord } from '../library.port.js';
import { toSongRecord, type LibraryRepository, type SongRow } from '../library.repository.js';
import type { LibraryService } from '../library.service.js';
import type { QuotaHolder, StorageQuota } from '../storage-quota.js';
import { newUploadKey, receiptKeyFor, songKeyFor, uploaderOf } from '../upload-key.js';
import { KeyedLock } from './keyed-lock.js';
import {
  completeUploadTags,
  describeSong,
  locateUpload,
  readUploadTags,
  recordSong,
  sniffUpload,
  storeCover,
  UPLOAD_NOT_FOUND,
  type CoverKeys,
} from './ingest.phases.js';

/** Time for a slow connection to PUT the largest allowed file. */
export const PRESIGNED_PUT_TTL_SECONDS = 15 * 60;
export const UPLOAD_LINK_USED = 'This upload link was already used. Please upload the file again.';

export interface IngestServiceDeps {
  repository: LibraryRepository;
  library: LibraryService;
  storage: Storage;
  logger: Logger;
  maxUploadBytes: number;
  /** How long tag parsing may take before the file counts as damaged. */
  tagTimeoutMs: number;
  coverLimits?: CoverLimits;
  /** Measures what the tags do not say (see completeUploadTags). */
  ffmpeg?: Pick<Ffmpeg, 'run' | 'start'>;
  /**
   * Told of each new song once it is recorded, with the tags the upload read (other modules keep
   * its embedded lyrics, queue its analysis); a failure here never fails the upload.
   */
  onSongAdded?: (songId: number, tags: AudioTags | undefined) => Promise<void>;
  /** USER_STORAGE_MB (issue 29); no quota when undefined. */
  quota?: StorageQuota;
}

/** Who completes the upload. */
export interface Uploader extends QuotaHolder {
  userName: string;
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
  private readonly lock = new KeyedLock();

  constructor(private readonly deps: IngestServiceDeps) {}

  /** 413 with the figures when the holder's songs leave no room for `bytes` more (undefined: for anything more). */
  async assertRoom(holder: QuotaHolder, bytes?: number): Promise<void> {
    await this.deps.quota?.assertRoom(holder, bytes);
  }

  async presign(userId: number, fileName: string, contentType: string | undefined): Promise<{ url: string; key: string }> {
    const key = newUploadKey(userId, fileName);
    const type = contentType?.trim() || undefined;
    const url = await this.deps.storage.presignPut(key, {
      expiresInSeconds: PRESIGNED_PUT_TTL_SECONDS,
      ...(type ? { contentType: type } : {}),
    });
    return { url, key };
  }

  /**
   * For the storage's own PUT route: refuses a PUT through the link of an upload already
   * completed (its song stands, or was deleted since), so a replayed link recreates nothing.
   * Keys that are not upload keys are not this feature's to judge.
   */
  async assertUploadOpen(key: string): Promise<void> {
    const songKey = songKeyFor(key);
    const receipt = receiptKeyFor(key);
    if (songKey === undefined || receipt === undefined) return;
    if ((await this.deps.storage.stat(receipt)) || (await this.ingested(key, songKey))) throw new ConflictError(UPLOAD_LINK_USED);
  }

  /** `created` is false when this key was already ingested (a retried request): the same song comes back. */
  async complete(uploader: Uploader, upload: CompleteUpload): Promise<{ song: SongRecord; created: boolean }> {
    const userId = uploader.id;
    const key = upload.s3key.trim();
    const songKey = songKeyFor(key);
    // Another user's key is as unknown as a key never issued: nothing is read, nothing deleted.
    if (songKey === undefined || uploaderOf(key) !== userId) throw new NotFoundError(UPLOAD_NOT_FOUND);
    const { row, created, tags } = await this.lock.run(key, async (): Promise<{ row: SongRow; created: boolean; tags?: AudioTags }> => {
      const existing = await this.ingested(key, songKey);
      if (existing) return { row: await this.again(existing, userId, key), created: false };
      return this.ingest(uploader, key, songKey, upload);
    });
    if (!created) return { song: await this.deps.library.get(row.id, userId), created };
    // Listeners of other features (embedded lyrics, sonic analysis) run before the answer;
    // none can fail the upload.
    await this.deps.onSongAdded?.(row.id, tags).catch((error: unknown) => this.deps.logger.warn({ err: error, songId: row.id }, 'a new-song listener failed'));
    // The inserted row is the whole song: its uploader is the caller, and nobody can have liked
    // a song whose id was not known until now.
    const [song] = await this.deps.library.withBrowseIds([toSongRecord({ row, isLiked: false }, uploader.userName)]);
    return { song: song as SongRecord, created };
  }

  /** The song of an upload: under its song key, or (songs ingested before song keys) the upload key. */
  private async ingested(key: string, songKey: string): Promise<SongRow | undefined> {
    return this.deps.repository.findByFirstStorageKey([songKey, key]);
  }

  /** A retried upload-complete. Anything PUT to the upload key since (a replay) is thrown away. */
  private async again(existing: SongRow, userId: number, key: string): Promise<SongRow> {
    if (existing.ownerId !== userId) throw new NotFoundError(UPLOAD_NOT_FOUND);
    if (existing.storageKey !== key) await this.discard([key]);
    return existing;
  }

  private async ingest(uploader: Uploader, key: string, songKey: string, upload: CompleteUpload) {
    const { storage, logger } = this.deps;
    const userId = uploader.id;
    const receipt = receiptKeyFor(key) as string;
    // Noted before the bytes move: from here on the upload link is spent.
    await storage.put(receipt, Buffer.alloc(0));
    try {
      await this.claim(key, songKey);
    } catch (error) {
      // Nothing was moved (no upload yet, or the storage failed): the link is not spent.
      await this.discard([receipt]);
      throw error;
    }
    let cover: CoverKeys | null = null;
    try {
      // From here on only the song key is read: what is checked is what the song will serve.
      const { size } = await locateUpload(storage, songKey, this.deps.maxUploadBytes);
      // The uploader's storage quota: a song that does not fit is refused (413), its bytes
      // removed; a look here spares reading them, the insert below decides.
      await this.assertRoom(uploader, size);
      // One reader for both phases: the blocks the sniffer read are not fetched again.
      const file = storageSource(storage, songKey, size);
      const audio = await sniffUpload(file);
      const tags = await completeUploadTags(await readUploadTags(file, audio, this.deps.tagTimeoutMs), this.deps.ffmpeg, (use) =>
        storage.withLocalFile(songKey, use),
      );
      cover = await storeCover(storage, tags.picture, this.deps.coverLimits ?? DEFAULT_COVER_LIMITS, logger, { key });
      const values = describeSong({ ownerId: userId, fileName: upload.fileName, storageKey: songKey, size, folderId: upload.folderId }, audio, tags, cover);
      const recorded = await recordSong(this.deps.repository, values, this.deps.quota?.roomFor(uploader, size));
      // Lost a race with a concurrent request for the same key: its song stands, our cover goes.
      if (!recorded.created && cover) await this.discard([cover.coverKey, cover.coverThumbKey]);
      return { ...recorded, tags };
    } catch (error) {
      const covers = cover ? [cover.coverKey, cover.coverThumbKey] : [];
      // Another process may have recorded a song for these bytes meanwhile: never pull them from under it.
      const owned = await this.deps.repository.findByStorageKey(songKey).catch(() => undefined);
      await this.discard([key, ...(owned ? [] : [songKey, receipt]), ...covers]);
      if (error instanceof AppError && error.isRefusal) logger.info({ key, reason: error.message }, 'upload refused');
      throw error;
    }
  }

  /**
   * Moves the upload to its song key. When that is already there (an attempt that crashed
   * before recording the song, or one still running in another process), it is used as is:
   * the move never overwrites it, so a later PUT to the upload key cannot change it.
   */
  private async claim(key: string, songKey: string): Promise<void> {
    try {
      await this.deps.storage.move(key, songKey);
    } catch (error) {
      const settled = error instanceof NotFoundError || error instanceof ConflictError;
      if (!settled) throw error;
      if (!(await this.deps.storage.stat(songKey))) throw new NotFoundError(UPLOAD_NOT_FOUND);
      // An attempt that died between linking the song key and deleting the upload (or a replay
      // since) left bytes at the upload key: the song key's are the ones checked and kept.
      if (error instanceof ConflictError) await this.discard([key]);
    }
  }

  private async discard(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.deps.storage.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') this.deps.logger.error({ err: result.reason, key: keys[index] }, 'could not remove a refused upload');
    });
  }
}
