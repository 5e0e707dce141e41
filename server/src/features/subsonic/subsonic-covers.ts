import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { NotFoundError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import { loadSharp } from '../../platform/media/sharp.loader.js';
import type { Storage, StoredObject } from '../../platform/storage/storage.types.js';
import type { CoverImage, SongCatalogue } from '../library/library.port.js';

/**
 * The sizes getCoverArt answers: a size asked is served at the nearest of these at or above it
 * (a client asking 100, 120 and 150 gets one 128-pixel picture), so a cover has a few cached
 * renditions, not one per pixel count. Above the last, the cover itself.
 */
export const COVER_SIZES = [32, 64, 128, 256, 300, 512, 768, 1024] as const;
/** Renditions are kept with the covers (swept with the library's unreferenced objects, remade when asked again). */
const CACHE_PREFIX = 'covers/sized/';
/** A stored cover is a JPEG of at most 1200 px; anything larger than this is not one of ours. */
const MAX_INPUT_PIXELS = 40_000_000;
/** How many covers' sizes are remembered (those too small for a size are sent as they are without being read twice). */
const REMEMBERED_SIZES = 10_000;

/** The rendition size for a size asked: undefined means the cover itself. */
export function coverSizeFor(size: number | undefined): number | undefined {
  if (size === undefined || size <= 0) return undefined;
  return COVER_SIZES.find((step) => step >= size);
}

/** A cover ready to send: its validator and its bytes. */
export interface SizedCover {
  etag: string;
  open(): Promise<StoredObject>;
}

/**
 * getCoverArt's pictures: the cover itself, or a rendition at a size of COVER_SIZES made by
 * sharp from the cover (its shape kept) and stored for the next time. Never larger than the
 * cover: a size at or above the cover's own is the cover. Requests for the same rendition at
 * once share one rendering.
 */
export class SubsonicCovers {
  private readonly rendering = new Map<string, Promise<StoredObject>>();
  /** The larger side of covers read, by their validator. */
  private readonly sides = new Map<string, number>();

  constructor(
    private readonly catalogue: Pick<SongCatalogue, 'coverOfSong'>,
    private readonly storage: Storage,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** The song's cover at `size` (see coverSizeFor); undefined when it has none; not found for an unknown song. */
  async cover(songId: number, size: number | undefined): Promise<SizedCover | undefined> {
    const step = coverSizeFor(size);
    const full = await this.catalogue.coverOfSong(songId, 'full');
    if (!full) return undefined;
    const side = this.sides.get(full.etag);
    if (step === undefined || (side !== undefined && side <= step)) return { etag: full.etag, open: () => full.open() };
    // The cover's validator names its bytes (its key never changes): so does the rendition's.
    const tag = full.etag.replace(/"/g, '');
    const key = `${CACHE_PREFIX}${tag}-${step}.jpg`;
    return {
      etag: `"${tag}-${step}"`,
      open: async () => {
        const stored = await this.storage.get(key).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (stored) return stored;
        let rendering = this.rendering.get(key);
        if (!rendering) {
          rendering = this.render(full, step, key).finally(() => this.rendering.delete(key));
          this.rendering.set(key, rendering);
        }
        return rendering;
      },
    };
  }

  /** The rendition, stored for the next time; the cover itself when it is not larger (never enlarged) or cannot be decoded. */
  private async render(cover: CoverImage, size: number, key: string): Promise<StoredObject> {
    const bytes = await buffer((await cover.open()).stream);
    const asIs = (): StoredObject => ({ stream: Readable.from([bytes]), size: bytes.length, contentType: cover.contentType });
    const sharp = await loadSharp();
    let resized: Buffer;
    try {
      const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).timeout({ seconds: 10 });
      const { width = 0, height = 0 } = await image.metadata();
      this.remember(cover.etag, Math.max(width, height));
      if (Math.max(width, height) <= size) return asIs();
      resized = await image
        .rotate()
        .resize(size, size, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80, optimiseCoding: false })
        .toBuffer();
    } catch (error) {
      this.logger.warn({ err: error, key }, 'a cover could not be resized; it is sent as it is');
      return asIs();
    }
    await this.storage.put(key, resized, { contentType: 'image/jpeg' }).catch((error: unknown) => {
      // Still sent; the next request makes it again.
      this.logger.warn({ err: error, key }, 'could not store a resized cover');
    });
    return { stream: Readable.from([resized]), size: resized.length, contentType: 'image/jpeg' };
  }

  private remember(etag: string, side: number): void {
    if (side <= 0) return;
    if (this.sides.size >= REMEMBERED_SIZES) this.sides.delete(this.sides.keys().next().value as string);
    this.sides.set(etag, side);
  }
}
