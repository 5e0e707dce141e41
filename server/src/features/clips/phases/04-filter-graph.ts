import path from 'node:path';
import { CLIP_TRANSITIONS, transitionSeconds, type TransitionLook } from '@encore/common/clip-timeline';
import type { Transition, VideoFormat } from '@encore/common/clips.contract';
import { songInputArgs } from '../../../platform/media/ffmpeg.input.js';

/**
 * Phase 4: one ffmpeg command: its inputs, one filter graph and the output options. Pure, so
 * every setting's effect is unit tested. Pictures are already the frame's size (phase 2);
 * a video is scaled and cropped here, looped or trimmed to the clip.
 *
 * Transitions between pictures use `xfade` when the binary has it; the fallback graph (the
 * npm-shipped ffmpeg 4.1 has no xfade) overlays the next picture on the previous one, fading
 * its alpha in (smooth) or sliding it in (sharp, elastic), which looks the same. Either runs
 * only for the transition's frames; the pictures' frames alone are concatenated around them.
 */
export interface GraphInput {
  width: number;
  height: number;
  framerate: number;
  /** Clip seconds. */
  duration: number;
  /** The song: its file and where the clip starts in it. */
  song: { file: string; start: number };
  media: { kind: 'images'; files: string[]; boundaries: number[] } | { kind: 'video'; file: string };
  transition: Transition;
  hasXfade: boolean;
  /** The ASS document and the fonts folder; absent when the clip has no words. */
  subtitles?: { file: string; fontsDir: string };
  format: VideoFormat;
  /**
   * A GIF is made in two runs, so memory stays flat however long the clip is (one run that
   * splits the frames between palettegen and paletteuse holds every frame until the palette
   * is known: 1.6 GB for a minute at 480p15). `palette`: the first run, a few frames a second
   * into one palette PNG at `output`; `frames`: the second, every frame mapped to that palette.
   */
  gif?: { stage: 'palette' } | { stage: 'frames'; palette: string };
  audioFadeIn: number;
  audioFadeOut: number;
  output: string;
}

export interface FfmpegCommand {
  args: string[];
  filter: string;
}

/** ffmpeg's xfade for each look of common's transitions (their lengths are common's too), and the fallback graph's nearest. */
export const TRANSITION_XFADE: Record<TransitionLook, { xfade: string; fallback: 'fade' | 'slide' }> = {
  fade: { xfade: 'fade', fallback: 'fade' },
  push: { xfade: 'slideleft', fallback: 'slide' },
  'soft-wipe': { xfade: 'smoothleft', fallback: 'slide' },
};

/** Demuxers a user's background video may be read with (no playlists, no concat). */
export const VIDEO_DEMUXERS = ['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'flv', 'gif', 'asf'] as const;

export function buildFfmpegCommand(input: GraphInput): FfmpegCommand {
  const { width, height, framerate: fps, duration } = input;
  const inputs: string[] = ['-ss', seconds(input.song.start), '-t', seconds(duration), ...songInputArgs({ file: input.song.file })];
  const chains: string[] = [];
  let video: string;

  if (input.media.kind === 'video') {
    inputs.push('-stream_loop', '-1', '-t', seconds(duration), '-format_whitelist', VIDEO_DEMUXERS.join(','), '-i', `file:${path.resolve(input.media.file)}`);
    chains.push(
      `[1:v]fps=${fps},scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,format=yuv420p,trim=duration=${seconds(duration)},setpts=PTS-STARTPTS[base]`,
    );
    video = '[base]';
  } else {
    video = pictureChain(input, inputs, chains);
  }

  if (input.subtitles) {
    chains.push(`${video}subtitles=filename=${filterValue(input.subtitles.file)}:fontsdir=${filterValue(input.subtitles.fontsDir)}[texted]`);
    video = '[texted]';
  }

  const outputArgs: string[] = [];
  if (input.format === 'gif' && input.gif?.stage === 'palette') {
    // The colours of the whole clip, from the frames this run makes (its framerate is low).
    chains.push(`${video}palettegen=stats_mode=full[out]`);
    const filter = chains.join(';');
    return {
      args: [
        ...inputs,
        '-filter_complex',
        filter,
        '-map',
        '[out]',
        '-an',
        '-frames:v',
        '1',
        '-update',
        '1',
        '-f',
        'image2',
        '-y',
        `file:${path.resolve(input.output)}`,
      ],
      filter,
    };
  }
  if (input.format === 'gif') {
    if (input.gif?.stage !== 'frames') throw new Error('a GIF is made from a palette: build the palette run first');
    const paletteInput = inputs.filter((arg) => arg === '-i').length;
    inputs.push('-f', 'image2', '-i', `file:${path.resolve(input.gif.palette)}`);
    chains.push(`${video}[${paletteInput}:v]paletteuse=dither=bayer:bayer_scale=3[out]`);
    outputArgs.push('-map', '[out]', '-an', '-loop', '0', '-f', 'gif');
  } else {
    chains.push(`${video}null[out]`);
    const fades: string[] = [];
    if (input.audioFadeIn > 0) fades.push(`afade=t=in:st=0:d=${seconds(Math.min(input.audioFadeIn, duration))}`);
    if (input.audioFadeOut > 0)
      fades.push(`afade=t=out:st=${seconds(Math.max(0, duration - input.audioFadeOut))}:d=${seconds(Math.min(input.audioFadeOut, duration))}`);
    chains.push(`[0:a]${fades.length > 0 ? fades.join(',') : 'anull'}[aout]`);
    outputArgs.push('-map', '[out]', '-map', '[aout]');
    if (input.format === 'mp4') {
      outputArgs.push(
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '20',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '192k',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
      );
    } else {
      outputArgs.push(
        '-c:v',
        'libvpx-vp9',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-row-mt',
        '1',
        '-crf',
        '32',
        '-b:v',
        '0',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'libopus',
        '-b:a',
        '128k',
        '-f',
        'webm',
      );
    }
  }
  const filter = chains.join(';');
  return {
    args: [...inputs, '-filter_complex', filter, ...outputArgs, '-r', String(fps), '-t', seconds(duration), '-y', `file:${path.resolve(input.output)}`],
    filter,
  };
}

function pictureChain(input: GraphInput, inputs: string[], chains: string[]): string {
  if (input.media.kind !== 'images') throw new Error('pictures expected');
  const { files, boundaries } = input.media;
  const { framerate: fps, duration } = input;
  const count = files.length;
  const style = input.transition === 'none' || count < 2 ? undefined : TRANSITION_XFADE[CLIP_TRANSITIONS[input.transition].look];
  const overlap = style ? transitionSeconds(boundaries, input.transition) : 0;
  const spans = pictureSpans(boundaries, count, duration, fps, overlap);
  const first = 1; // input 0 is the song
  // The picture's timestamps in frames of the clip (the image demuxer's default is 1/25 s).
  files.forEach((file) => inputs.push('-framerate', String(fps), '-f', 'image2', '-i', `file:${path.resolve(file)}`));

  // Each picture is read and converted once, then repeated by the loop filter (a looped image
  // input would decode and convert it again every frame). The clip is a concat of segments:
  // each picture alone (yuv420p, the encoder's format: nothing is converted per frame), and
  // between two pictures only the transition's frames, both pictures repeated for them and
  // blended by xfade, or by the fallback's overlay (npm ffmpeg 4.1 has no xfade). xfade works
  // in 4:4:4 only: over whole-length streams, ffmpeg converted every frame of the clip to
  // yuv444p for it and back for the encoder, and the text was drawn on 4:4:4 frames.
  const repeat = (frames: number) => `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB`;
  const blendFormat = !style ? 'yuv420p' : input.hasXfade ? 'yuv444p' : 'yuva420p';
  const segments: string[] = [];
  spans.forEach((span, i) => {
    const uses: { label: string; chain: string }[] = [];
    const incoming = span.transition > 0;
    const outgoing = (spans[i + 1]?.transition ?? 0) > 0;
    if (incoming) {
      const fadeIn = !input.hasXfade && style?.fallback === 'fade' ? `,fade=t=in:st=0:d=${seconds(overlap)}:alpha=1` : '';
      uses.push({ label: `[i${i}]`, chain: `format=${blendFormat},${repeat(span.transition)}${fadeIn}` });
    }
    if (span.alone > 0) uses.push({ label: `[p${i}]`, chain: `format=yuv420p,${repeat(span.alone)}` });
    // The picture going out under the next one: as the encoder's format for the fallback's overlay (it is the canvas).
    if (outgoing) uses.push({ label: `[o${i}]`, chain: `format=${input.hasXfade ? blendFormat : 'yuv420p'},${repeat(spans[i + 1]?.transition ?? 1)}` });
    const source = `[${first + i}:v]setsar=1`;
    if (uses.length === 1) chains.push(`${source},${uses[0]?.chain}${uses[0]?.label}`);
    else if (uses.length > 1) {
      // Splits the one decoded picture, before it is repeated.
      chains.push(`${source},split=${uses.length}${uses.map((_, u) => `[u${i}_${u}]`).join('')}`);
      uses.forEach((use, u) => chains.push(`[u${i}_${u}]${use.chain}${use.label}`));
    }
    if (incoming && style) {
      const blend = input.hasXfade
        ? `[o${i - 1}][i${i}]xfade=transition=${style.xfade}:duration=${seconds(overlap)}:offset=0`
        : `[o${i - 1}][i${i}]overlay=eof_action=pass${style.fallback === 'slide' ? `:x='max(0,W*(1-t/${seconds(overlap)}))':eval=frame` : ''}:format=auto`;
      chains.push(`${blend},format=yuv420p[t${i}]`);
      segments.push(`[t${i}]`);
    }
    if (span.alone > 0) segments.push(`[p${i}]`);
  });
  chains.push(`${segments.join('')}concat=n=${segments.length}:v=1:a=0[base]`);
  return '[base]';
}

/**
 * The clip's frames for each picture: its transition in (the previous picture going out under
 * it), then its frames alone. A picture starts at its boundary's frame, each transition from
 * its picture's start (common/clip-timeline), and together they make the clip's frame count.
 */
export function pictureSpans(
  boundaries: readonly number[],
  count: number,
  duration: number,
  fps: number,
  overlap: number,
): { transition: number; alone: number }[] {
  const total = Math.max(1, Math.round(duration * fps));
  const transitionFrames = overlap > 0 ? Math.max(1, Math.round(overlap * fps)) : 0;
  const starts: number[] = [];
  for (let i = 0; i < count; i++) starts.push(i === 0 ? 0 : Math.min(total, Math.max(starts[i - 1] ?? 0, Math.round((boundaries[i] ?? 0) * fps))));
  return starts.map((start, i) => {
    const length = (i === count - 1 ? total : (starts[i + 1] ?? total)) - start;
    const transition = i === 0 ? 0 : Math.min(transitionFrames, length);
    return { transition, alone: length - transition };
  });
}

/** A number of seconds as ffmpeg reads it (milliseconds, no exponent). */
function seconds(value: number): string {
  return (Math.round(value * 1000) / 1000).toFixed(3);
}

/** A path as a filter option value inside a filter graph: escaped for the option, then for the graph. */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}
