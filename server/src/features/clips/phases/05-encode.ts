import path from 'node:path';
import { FfmpegError } from '../../../platform/media/ffmpeg.error.js';
import { buildFfmpegCommand, type FfmpegCommand, type GraphInput } from './04-filter-graph.js';
import { CLIP_FONTS_DIR } from './03-build-subtitles.js';
import { RenderInputError, required, type RenderContext } from './render-context.js';
import { recordEncoder } from './work-dir.js';

/** The share of the whole render's progress the encode covers. */
const ENCODE_FROM = 6;
const ENCODE_TO = 97;
/** A GIF's palette run: where it ends in the progress, and how many frames a second it looks at. */
const PALETTE_TO = 16;
const PALETTE_FRAMERATE = 2;

/**
 * Phase 4 (the graph) and 5: ffmpeg into the work folder, its progress from `-progress`. One
 * run; a GIF two (04-filter-graph.ts): its palette from a few frames a second, then every frame.
 */
export async function encode(context: RenderContext): Promise<void> {
  const { lacks } = context.ffmpegInfo;
  const format = context.clip.format as 'mp4' | 'webm' | 'gif';
  const needed = format === 'mp4' ? ['libx264'] : format === 'webm' ? ['libvpx-vp9', 'libopus'] : [];
  if (context.subtitleFile) needed.push('subtitles');
  const missing = needed.filter((feature) => (lacks as string[]).includes(feature));
  if (missing.length > 0) throw new RenderInputError(`This server's ffmpeg cannot make this clip (it lacks ${missing.join(', ')}).`);
  const duration = required(context.duration, 'duration');
  const output = path.join(context.workDir, `clip.${format}`);
  const graph: GraphInput = {
    width: context.width,
    height: context.height,
    framerate: context.settings.framerate,
    duration,
    song: { file: required(context.songFile, 'song file'), start: required(context.start, 'start') },
    media:
      context.clip.mediaKind === 'video'
        ? { kind: 'video', file: required(context.mediaFiles?.[0], 'video file') }
        : { kind: 'images', files: required(context.pictures, 'pictures'), boundaries: required(context.boundaries, 'boundaries') },
    transition: context.settings.transitions,
    hasXfade: !lacks.includes('xfade'),
    ...(context.subtitleFile ? { subtitles: { file: context.subtitleFile, fontsDir: CLIP_FONTS_DIR } } : {}),
    format,
    audioFadeIn: context.settings.audioFadeIn,
    audioFadeOut: context.settings.audioFadeOut,
    output,
  };
  await context.progress(ENCODE_FROM, 'Rendering');
  if (format === 'gif') {
    const palette = path.join(context.workDir, 'palette.png');
    const paletteRun = { ...graph, framerate: Math.min(PALETTE_FRAMERATE, graph.framerate), output: palette, gif: { stage: 'palette' as const } };
    await runEncoder(context, buildFfmpegCommand(paletteRun), duration, ENCODE_FROM, PALETTE_TO);
    await runEncoder(context, buildFfmpegCommand({ ...graph, gif: { stage: 'frames', palette } }), duration, PALETTE_TO, ENCODE_TO);
  } else {
    await runEncoder(context, buildFfmpegCommand(graph), duration, ENCODE_FROM, ENCODE_TO);
  }
  context.outputFile = output;
}

/** One ffmpeg run, its `-progress` mapped onto `from`..`to` of the render's progress. */
export async function runEncoder(
  context: Pick<RenderContext, 'ffmpeg' | 'signal' | 'progress' | 'workDir'>,
  command: FfmpegCommand,
  duration: number,
  from: number,
  to: number,
): Promise<void> {
  let reported = from;
  try {
    const running = await context.ffmpeg.start(command.args, {
      signal: context.signal,
      durationSeconds: duration,
      // A 4K render of a long song takes a while on two cores; a stuck one still ends.
      timeoutMs: Math.max(10 * 60_000, duration * 60_000),
      onProgress: (report) => {
        if (report.percent === undefined) return;
        const percent = Math.floor(from + ((to - from) * report.percent) / 100);
        if (percent > reported) {
          reported = percent;
          // Best effort: a progress write that fails (the database busy or closing) must not
          // become an unhandled rejection, which would end the process; the render goes on.
          context.progress(percent, 'Rendering').catch(() => undefined);
        }
      },
    });
    // Observed from the start: a cancellation can end ffmpeg, and reject `done`, while its
    // process id is still being written; unobserved, that rejection would end the process.
    running.done.catch(() => undefined);
    try {
      // Should this process be killed, the next one finds and stops this ffmpeg (work-dir.ts).
      await recordEncoder(context.workDir, running.pid);
    } catch (error) {
      // Not recorded, it could outlive a crash: stop it, and return once it has exited.
      running.stop();
      await running.done.catch(() => undefined);
      throw error;
    }
    await running.done;
  } catch (error) {
    if (error instanceof FfmpegError && error.kind === 'failed') throw new RenderInputError(`The clip could not be rendered: ${error.message}`);
    throw error;
  }
}
