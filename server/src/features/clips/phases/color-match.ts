import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TextColorStretch } from '@encore/common/clip-subtitles';
import type { TextPosition } from '@encore/common/text-style.contract';
import { loadSharp } from '../../../platform/media/sharp.loader.js';
import { VIDEO_DEMUXERS } from './04-filter-graph.js';
import { required, type RenderContext } from './render-context.js';

/**
 * colorMatch: the text is white or near-black, whichever stands out on what is behind it (the
 * third of the frame the text sits in). A picture gets one colour; a video is sampled over the
 * clip (a few dozen thumbnails at most) and gets a colour per stretch of time, which the
 * subtitle document applies from each screen of words on.
 */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#111111';
/** Above this mean luminance (0-1) the background is bright: dark text. */
const BRIGHT = 0.55;
/** A video's text changes colour only once the background is clearly past the line (no flicker on mid-grey). */
const HYSTERESIS = 0.05;
/** At most this many video samples, at least this far apart. */
const MAX_SAMPLES = 48;
const MIN_SAMPLE_SECONDS = 1;
/** The longer side of a video sample, in pixels. */
const SAMPLE_SIDE = 64;

/** The rows of a frame the text sits in: the top, middle or bottom third. */
export function textBand(height: number, position: TextPosition): { top: number; height: number } {
  const band = Math.max(1, Math.round(height / 3));
  const top = position === 'top' ? 0 : position === 'bottom' ? height - band : Math.round((height - band) / 2);
  return { top, height: band };
}

/** Relative luminance (Rec. 709) of a mean colour in 0-255 channels. */
export function luminance([r, g, b]: readonly number[]): number {
  return (0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)) / 255;
}

export function standOutColorFor(backgroundLuminance: number): string {
  return backgroundLuminance > BRIGHT ? DARK_TEXT : LIGHT_TEXT;
}

/** A picture (already the frame's size): the colour for its band. */
export async function pictureTextColor(picture: string, context: Pick<RenderContext, 'width' | 'height' | 'settings'>): Promise<string> {
  const band = textBand(context.height, context.settings.textPosition);
  const sharp = await loadSharp();
  const { channels } = await sharp(picture).extract({ left: 0, top: band.top, width: context.width, height: band.height }).stats();
  return standOutColorFor(luminance(channels.map((channel) => channel.mean)));
}

/**
 * Colours of samples taken every `interval` seconds (sample i at i × interval), as stretches:
 * a change takes effect halfway between the two samples. Past the line by less than the
 * hysteresis, the colour stays what it was.
 */
export function colorStretches(luminances: readonly number[], interval: number): TextColorStretch[] {
  const stretches: TextColorStretch[] = [];
  let current: string | undefined;
  luminances.forEach((value, index) => {
    const wanted = standOutColorFor(value);
    const clear = current === undefined || Math.abs(value - BRIGHT) >= HYSTERESIS;
    if (wanted === current || !clear) return;
    current = wanted;
    stretches.push({ from: index === 0 ? 0 : Math.round((index - 0.5) * interval * 1000) / 1000, color: wanted });
  });
  return stretches;
}

/** Mean RGB of the text band of each RGB24 frame in `raw`. */
export function bandMeans(raw: Buffer, width: number, height: number, position: TextPosition): [number, number, number][] {
  const frameBytes = width * height * 3;
  const band = textBand(height, position);
  const means: [number, number, number][] = [];
  for (let offset = 0; offset + frameBytes <= raw.length; offset += frameBytes) {
    let r = 0;
    let g = 0;
    let b = 0;
    const start = offset + band.top * width * 3;
    const end = start + band.height * width * 3;
    for (let i = start; i < end; i += 3) {
      r += raw[i] ?? 0;
      g += raw[i + 1] ?? 0;
      b += raw[i + 2] ?? 0;
    }
    const pixels = band.height * width;
    means.push([r / pixels, g / pixels, b / pixels]);
  }
  return means;
}

/** A small sample frame of the output's shape. */
export function sampleSize(width: number, height: number): { width: number; height: number } {
  const scale = SAMPLE_SIDE / Math.max(width, height);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/**
 * The background video, looped or trimmed to the clip and cropped to the frame as the render
 * does, decoded once; a thumbnail every few seconds is measured.
 */
export async function videoTextColors(context: RenderContext): Promise<TextColorStretch[]> {
  const video = required(context.mediaFiles?.[0], 'video file');
  const duration = required(context.duration, 'duration');
  const interval = Math.max(MIN_SAMPLE_SECONDS, duration / MAX_SAMPLES);
  const size = sampleSize(context.width, context.height);
  const output = path.join(context.workDir, 'color-samples.rgb');
  const filter = `fps=1000/${Math.round(interval * 1000)},scale=${size.width}:${size.height}:force_original_aspect_ratio=increase:flags=area,crop=${size.width}:${size.height},format=rgb24`;
  await context.ffmpeg.run(
    [
      '-stream_loop',
      '-1',
      '-t',
      duration.toFixed(3),
      '-format_whitelist',
      VIDEO_DEMUXERS.join(','),
      '-i',
      `file:${path.resolve(video)}`,
      '-map',
      '0:v:0',
      '-vf',
      filter,
      '-an',
      '-f',
      'rawvideo',
      '-y',
      `file:${output}`,
    ],
    { signal: context.signal, timeoutMs: Math.max(5 * 60_000, duration * 2000) },
  );
  const means = bandMeans(await readFile(output), size.width, size.height, context.settings.textPosition);
  return colorStretches(means.map(luminance), interval);
}
