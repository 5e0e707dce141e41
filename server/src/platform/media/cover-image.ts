import type SharpModule from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { loadSharp } from './sharp.loader.js';

/**
 * Cover art as Encore stores it: the large image for the song page. Its square thumbnail is
 * made from it when first asked for (renderThumbnail), not while the upload waits.
 */
export interface RenderedCover {
  full: Buffer;
  contentType: 'image/jpeg';
}

export interface CoverLimits {
  /** Refuse pictures with more pixels than this (a small file can declare a huge canvas). */
  maxInputPixels: number;
  fullSize: number;
  thumbSize: number;
  timeoutSeconds: number;
}

export const DEFAULT_COVER_LIMITS: CoverLimits = { maxInputPixels: 40_000_000, fullSize: 1200, thumbSize: 300, timeoutSeconds: 10 };

/** The picture could not be used: not an image, damaged, or over the pixel limit. */
export class UnusableCoverError extends Error {}

/**
 * The stored cover of an embedded picture: the picture itself when `keepsAsIs` (its header is
 * read, and it must end where a JPEG ends), else re-encoded within the full size. Decoding is
 * bounded by the pixel limit (checked from the header, before any pixel is decoded, so a
 * decompression bomb costs nothing), by `failOn: 'error'` (a damaged header is refused; damage
 * in the compressed data only decodes grey, as in a browser) and by a time limit.
 *
 * Both encodings use plain libjpeg-turbo settings: mozjpeg's trellis quantisation saves ~10% of
 * bytes but made covers ten times slower to encode, and optimised Huffman tables save ~6% for
 * ~40% more encoding time (bench/library/ingest.bench.ts).
 */
export async function renderCover(data: Uint8Array, limits: CoverLimits = DEFAULT_COVER_LIMITS): Promise<RenderedCover> {
  const sharp = await loadSharp();
  try {
    // Most embedded covers are already a clean JPEG of about the song page's size.
    if (keepsAsIs(data, await sharp(data, { limitInputPixels: limits.maxInputPixels }).metadata(), limits)) {
      return { full: Buffer.from(data), contentType: 'image/jpeg' };
    }
    const full = await decoded(sharp, data, limits)
      .resize(limits.fullSize, limits.fullSize, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, optimiseCoding: false })
      .toBuffer();
    return { full, contentType: 'image/jpeg' };
  } catch (error) {
    throw unusable(error);
  }
}

/** The square thumbnail of a stored cover, decoded as renderCover decodes (UnusableCoverError when it cannot be). */
export async function renderThumbnail(cover: Uint8Array, limits: CoverLimits = DEFAULT_COVER_LIMITS): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await decoded(sharp, cover, limits)
      .resize(limits.thumbSize, limits.thumbSize, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, optimiseCoding: false })
      .toBuffer();
  } catch (error) {
    throw unusable(error);
  }
}

function unusable(error: unknown): UnusableCoverError {
  return new UnusableCoverError(error instanceof Error ? error.message : String(error));
}

/** A bounded, upright decode of `data`. */
function decoded(sharp: typeof SharpModule, data: Uint8Array, limits: CoverLimits): Sharp {
  return sharp(data, { limitInputPixels: limits.maxInputPixels, failOn: 'error', sequentialRead: true }).timeout({ seconds: limits.timeoutSeconds }).rotate();
}

type ImageFacts = Pick<Metadata, 'format' | 'width' | 'height' | 'orientation' | 'space' | 'channels' | 'exif' | 'xmp' | 'iptc'>;

/**
 * An embedded JPEG is stored as it is when re-encoding it would change nothing a listener
 * sees: within the full size, upright, plain sRGB or greyscale, and carrying no EXIF, XMP or
 * IPTC (a phone photo's location or camera must not be served to everyone who sees the
 * cover), and whole (ending in the end-of-image marker: a truncated file is re-encoded, as
 * before, rather than served cut off).
 */
export function keepsAsIs(data: Uint8Array, facts: ImageFacts, limits: Pick<CoverLimits, 'fullSize'>): boolean {
  const upright = facts.orientation === undefined || facts.orientation === 1;
  const plainColour = (facts.space === 'srgb' && facts.channels === 3) || (facts.space === 'b-w' && facts.channels === 1);
  const whole = data.length > 4 && data[data.length - 2] === 0xff && data[data.length - 1] === 0xd9;
  return (
    facts.format === 'jpeg' &&
    (facts.width ?? Infinity) <= limits.fullSize &&
    (facts.height ?? Infinity) <= limits.fullSize &&
    upright &&
    plainColour &&
    !facts.exif &&
    !facts.xmp &&
    !facts.iptc &&
    whole
  );
}
