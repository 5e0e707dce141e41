import type { Metadata } from 'sharp';
import { loadSharp } from './sharp.loader.js';

/** Cover art as Encore stores it: a large image for the song page and a square thumbnail. */
export interface RenderedCover {
  full: Buffer;
  thumb: Buffer;
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
 * Makes the stored cover and thumbnail of an embedded picture: the thumbnail is always
 * encoded anew; the cover is the picture itself when `keepsAsIs`, else re-encoded. Decoding is bounded by the pixel limit (checked from the
 * header, before any pixel is decoded, so a decompression bomb costs nothing), by `failOn`
 * (truncated or corrupt data is an error, not a half-grey picture) and by a time limit.
 */
export async function renderCover(data: Uint8Array, limits: CoverLimits = DEFAULT_COVER_LIMITS): Promise<RenderedCover> {
  const sharp = await loadSharp();
  const input = () =>
    sharp(data, { limitInputPixels: limits.maxInputPixels, failOn: 'error', sequentialRead: true })
      .timeout({ seconds: limits.timeoutSeconds })
      .rotate();
  // Plain libjpeg-turbo settings: mozjpeg's trellis quantisation saves ~10% of bytes but made
  // covers ten times slower to encode, and optimised Huffman tables save ~6% for ~40% more
  // encoding time (bench/library/ingest.bench.ts).
  try {
    // Most embedded covers are already a clean JPEG of about the song page's size. The
    // thumbnail's decode reads every byte of it (a damaged one fails there), so it is kept as is.
    const kept = keepsAsIs(data, await sharp(data, { limitInputPixels: limits.maxInputPixels }).metadata(), limits);
    const [full, thumb] = await Promise.all([
      kept
        ? Buffer.from(data)
        : input()
            .resize(limits.fullSize, limits.fullSize, { fit: 'inside', withoutEnlargement: true })
            .flatten({ background: '#ffffff' })
            .jpeg({ quality: 85, optimiseCoding: false })
            .toBuffer(),
      input()
        .resize(limits.thumbSize, limits.thumbSize, { fit: 'cover' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80, optimiseCoding: false })
        .toBuffer(),
    ]);
    return { full, thumb, contentType: 'image/jpeg' };
  } catch (error) {
    throw new UnusableCoverError(error instanceof Error ? error.message : String(error));
  }
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
