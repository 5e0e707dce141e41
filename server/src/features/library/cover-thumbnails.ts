import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { NotFoundError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import { DEFAULT_COVER_LIMITS, renderThumbnail, UnusableCoverError, type CoverLimits } from '../../platform/media/cover-image.js';
import type { Storage, StoredObject } from '../../platform/storage/storage.types.js';

export interface CoverThumbnailsDeps {
  storage: Storage;
  logger: Logger;
  limits?: CoverLimits;
}

/**
 * Cover thumbnails, made from the stored cover the first time one is asked for and stored
 * beside it, as Navidrome does with its artwork cache. The upload does not wait for them, and
 * an import of thousands of songs makes only the ones somebody looks at.
 *
 * A thumbnail is derived data: a missing one (never asked for, lost in a crash, not stored
 * because the disk was full) is made again. Requests for the same one at once share one
 * rendering in this process; processes that race write the same bytes to the same key.
 */
export class CoverThumbnails {
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(private readonly deps: CoverThumbnailsDeps) {}

  /** The thumbnail at `thumbKey` of the cover at `coverKey`; the cover itself when it cannot be decoded. */
  async open(coverKey: string, thumbKey: string): Promise<StoredObject> {
    try {
      return await this.deps.storage.get(thumbKey);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    let rendering = this.rendering.get(thumbKey);
    if (!rendering) {
      rendering = this.make(coverKey, thumbKey).finally(() => this.rendering.delete(thumbKey));
      this.rendering.set(thumbKey, rendering);
    }
    const bytes = await rendering;
    return { stream: Readable.from([bytes]), size: bytes.length, contentType: 'image/jpeg' };
  }

  private async make(coverKey: string, thumbKey: string): Promise<Buffer> {
    const { storage, logger } = this.deps;
    // A stored cover is a JPEG within the full size (1200 px): a few megabytes at most.
    const data = await buffer((await storage.get(coverKey)).stream);
    let thumb: Buffer;
    try {
      thumb = await renderThumbnail(data, this.deps.limits ?? DEFAULT_COVER_LIMITS);
    } catch (error) {
      if (!(error instanceof UnusableCoverError)) throw error;
      // A stored cover that no longer decodes (damaged on the disk since, say) is sent as it
      // is: a browser shows what it can of it. Nothing is stored, so a repaired one is used.
      logger.warn({ coverKey, reason: error.message }, 'cover could not be decoded for a thumbnail; the cover is sent instead');
      return data;
    }
    try {
      await storage.put(thumbKey, thumb, { contentType: 'image/jpeg' });
    } catch (error) {
      // The thumbnail is still sent; the next request makes it again.
      logger.warn({ err: error, thumbKey }, 'could not store a cover thumbnail');
    }
    return thumb;
  }
}
