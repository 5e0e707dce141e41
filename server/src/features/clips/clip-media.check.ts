import { loadSharp } from '../../platform/media/sharp.loader.js';
import { FfmpegError } from '../../platform/media/ffmpeg.error.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { PayloadTooLargeError, UnprocessableError, UnsupportedMediaTypeError } from '../../platform/errors/app-errors.js';
import { VIDEO_DEMUXERS } from './phases/04-filter-graph.js';

/** One uploaded media file, spooled to a temp file by the route. */
export interface UploadedMedia {
  file: string;
  /** The name on the user's disk (messages only: what it is comes from its bytes). */
  name: string;
  size: number;
}

export interface ClipMediaLimits {
  maxImages: number;
  maxImageBytes: number;
  maxVideoBytes: number;
  maxVideoSeconds: number;
  maxImagePixels: number;
  maxImageAspect: number;
}

export type CheckedMedia = { kind: 'image'; extension: string; contentType: string } | { kind: 'video'; durationSeconds: number };

const IMAGE_FORMATS: Record<string, { extension: string; contentType: string }> = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  gif: { extension: 'gif', contentType: 'image/gif' },
  avif: { extension: 'avif', contentType: 'image/avif' },
  heif: { extension: 'heic', contentType: 'image/heic' },
  tiff: { extension: 'tiff', contentType: 'image/tiff' },
};

/** What a file is, by its bytes: a picture sharp reads, or a video with a video stream ffmpeg reads. */
export async function checkClipMedia(media: UploadedMedia, limits: ClipMediaLimits, ffmpeg: Ffmpeg, signal?: AbortSignal): Promise<CheckedMedia> {
  const image = await imageFormat(media.file);
  if (image) {
    const format = IMAGE_FORMATS[image.format];
    if (!format) throw new UnsupportedMediaTypeError(`"${media.name}" is a ${image.format} picture; use JPEG, PNG, WebP, GIF, AVIF, HEIC or TIFF.`);
    if (media.size > limits.maxImageBytes) throw new PayloadTooLargeError(`"${media.name}" is larger than ${mb(limits.maxImageBytes)} MB.`);
    if (image.width * image.height > limits.maxImagePixels)
      throw new PayloadTooLargeError(`"${media.name}" has too many pixels (${image.width} × ${image.height}).`);
    const aspect = Math.max(image.width / image.height, image.height / image.width);
    if (aspect > limits.maxImageAspect)
      throw new UnprocessableError(`"${media.name}" is too narrow a strip (${image.width} × ${image.height}) to fill a frame.`);
    return { kind: 'image', ...format };
  }
  if (media.size > limits.maxVideoBytes) throw new PayloadTooLargeError(`"${media.name}" is larger than ${mb(limits.maxVideoBytes)} MB.`);
  const durationSeconds = await videoDuration(media, ffmpeg, signal);
  if (durationSeconds > limits.maxVideoSeconds)
    throw new UnprocessableError(`"${media.name}" is longer than ${Math.round(limits.maxVideoSeconds / 60)} minutes.`);
  return { kind: 'video', durationSeconds };
}

async function imageFormat(file: string): Promise<{ format: string; width: number; height: number } | undefined> {
  try {
    // Reads the header only: a huge picture is refused before it is decoded.
    const sharp = await loadSharp();
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    if (!meta.format || !meta.width || !meta.height || meta.format === 'svg') return undefined;
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}

/** Copies the first video stream to nowhere: fails unless there is one ffmpeg can read; its length is the last time written. */
async function videoDuration(media: UploadedMedia, ffmpeg: Ffmpeg, signal?: AbortSignal): Promise<number> {
  let seconds = 0;
  try {
    await ffmpeg.run(['-format_whitelist', VIDEO_DEMUXERS.join(','), '-i', `file:${media.file}`, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'], {
      timeoutMs: 60_000,
      ...(signal ? { signal } : {}),
      onProgress: (report) => {
        seconds = Math.max(seconds, report.outSeconds);
      },
    });
  } catch (error) {
    if (error instanceof FfmpegError && error.kind === 'failed') {
      if (/matches no streams/i.test(error.message)) throw new UnprocessableError(`"${media.name}" has no video stream.`);
      throw new UnsupportedMediaTypeError(`"${media.name}" is neither a picture nor a video Encore can read.`);
    }
    throw error;
  }
  if (seconds <= 0) throw new UnprocessableError(`"${media.name}" has no video frames.`);
  return seconds;
}

function mb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}
