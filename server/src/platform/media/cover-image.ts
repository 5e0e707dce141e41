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
 * Re-encodes an embedded picture. Decoding is bounded by the pixel limit (checked from the
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
    const [full, thumb] = await Promise.all([
      input()
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
