import path from 'node:path';
import { loadSharp } from '../../../platform/media/sharp.loader.js';
import { pictureTextColor, videoTextColors } from './color-match.js';
import { clipBeats, lineStarts, ONSET_SAMPLE_RATE, pictureBoundaries } from '@encore/common/clip-timeline';
import { detectOnsets } from './onsets.js';
import { required, type RenderContext } from './render-context.js';

/**
 * Phase 2: every picture scaled and cropped once to the frame (so the filter graph only moves
 * frames), when each picture shows (common/clip-timeline: evenly, on beats, or on lyric lines), and with colorMatch
 * a text colour that stands out on each picture, or on each stretch of a video (color-match.ts).
 * A video is scaled in the graph (phase 4).
 */
export async function normaliseMedia(context: RenderContext): Promise<void> {
  if (context.clip.mediaKind !== 'images') {
    if (!context.settings.colorMatch) return;
    await context.progress(3, 'Matching the text colour to the video');
    context.textColors = await videoTextColors(context);
    return;
  }
  await context.progress(3, 'Preparing the pictures');
  const files = required(context.mediaFiles, 'media files');
  const duration = required(context.duration, 'duration');
  context.pictures = [];
  const sharp = await loadSharp();
  for (const [index, file] of files.entries()) {
    const out = path.join(context.workDir, `picture-${index}.png`);
    // PNG: lossless, so the encoder sees the picture once compressed, not twice.
    await sharp(file, { limitInputPixels: 60_000_000 })
      .rotate()
      .resize(context.width, context.height, { fit: 'cover', position: 'attention' })
      .removeAlpha()
      .png({ compressionLevel: 1 })
      .toFile(out);
    context.pictures.push(out);
  }
  let anchors: number[] = [];
  if (context.settings.beatDetection && files.length > 1) anchors = await beats(context, duration);
  else if (context.settings.autoSync && files.length > 1) anchors = lineStarts(context.words, required(context.start, 'start'));
  context.boundaries = pictureBoundaries(files.length, duration, anchors);
  if (context.settings.colorMatch) {
    context.textColors = [];
    for (const [index, picture] of context.pictures.entries())
      context.textColors.push({ from: context.boundaries[index] ?? 0, color: await pictureTextColor(picture, context) });
  }
}

/** An onset pass over the clip's part of the song. */
async function beats(context: RenderContext, duration: number): Promise<number[]> {
  await context.progress(4, 'Finding the beats');
  const pcm = context.ffmpeg.decodeToPcm(required(context.songFile, 'song file'), {
    sampleRate: ONSET_SAMPLE_RATE,
    signal: context.signal,
    timeoutMs: 10 * 60_000,
  });
  return clipBeats(await detectOnsets(pcm, ONSET_SAMPLE_RATE), required(context.start, 'start'), duration);
}
