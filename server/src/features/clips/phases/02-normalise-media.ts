import path from 'node:path';
import { loadSharp } from '../../../platform/media/sharp.loader.js';
import { detectOnsets } from './onsets.js';
import { lineStarts, pictureBoundaries } from './picture-timing.js';
import { required, type RenderContext } from './render-context.js';

/**
 * Phase 2: every picture scaled and cropped once to the frame (so the filter graph only moves
 * frames), when each picture shows (evenly, on beats, or on lyric lines), and with colorMatch
 * a text colour that stands out on each picture. A video is scaled in the graph (phase 4).
 */
export async function normaliseMedia(context: RenderContext): Promise<void> {
  await context.progress(3, 'Preparing the pictures');
  if (context.clip.mediaKind !== 'images') return;
  const files = required(context.mediaFiles, 'media files');
  const duration = required(context.duration, 'duration');
  context.pictures = [];
  const sharp = await loadSharp();
  for (const [index, file] of files.entries()) {
    const out = path.join(context.workDir, `picture-${index}.png`);
    // PNG: lossless, so the encoder sees the picture once compressed, not twice.
    await sharp(file, { limitInputPixels: 60_000_000 }).rotate().resize(context.width, context.height, { fit: 'cover', position: 'attention' }).removeAlpha().png({ compressionLevel: 1 }).toFile(out);
    context.pictures.push(out);
  }
  let anchors: number[] = [];
  if (context.settings.beatDetection && files.length > 1) anchors = await beats(context, duration);
  else if (context.settings.autoSync && files.length > 1) anchors = lineStarts(context.words, required(context.start, 'start'));
  context.boundaries = pictureBoundaries(files.length, duration, anchors);
  if (context.settings.colorMatch) {
    context.textColors = [];
    for (const [index, picture] of context.pictures.entries()) context.textColors.push({ from: context.boundaries[index] ?? 0, color: await standOutColor(picture, context) });
  }
}

/** An onset pass over the clip's part of the song. */
async function beats(context: RenderContext, duration: number): Promise<number[]> {
  await context.progress(4, 'Finding the beats');
  const sampleRate = 16_000;
  const start = required(context.start, 'start');
  const pcm = context.ffmpeg.decodeToPcm(required(context.songFile, 'song file'), { sampleRate, signal: context.signal, timeoutMs: 10 * 60_000 });
  const onsets = await detectOnsets(pcm, sampleRate);
  return onsets.map((t) => t - start).filter((t) => t > 0 && t < duration);
}

/** White or near-black, whichever contrasts more with the band of the picture the text sits on. */
export async function standOutColor(picture: string, context: Pick<RenderContext, 'width' | 'height' | 'settings'>): Promise<string> {
  const bandHeight = Math.max(1, Math.round(context.height / 3));
  const top = context.settings.textPosition === 'top' ? 0 : context.settings.textPosition === 'bottom' ? context.height - bandHeight : Math.round((context.height - bandHeight) / 2);
  const sharp = await loadSharp();
  const { channels } = await sharp(picture).extract({ left: 0, top, width: context.width, height: bandHeight }).stats();
  const [r, g, b] = channels.map((channel) => channel.mean / 255);
  const luminance = 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  return luminance > 0.55 ? '#111111' : '#ffffff';
}
