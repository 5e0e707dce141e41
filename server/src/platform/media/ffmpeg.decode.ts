import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { holdErrors } from '../streams/hold-errors.js';
import { songInputArgs } from './ffmpeg.input.js';
import { startFfmpeg, type FfmpegRunOptions } from './ffmpeg.run.js';

export interface DecodeOptions extends Pick<FfmpegRunOptions, 'signal' | 'timeoutMs' | 'onProgress' | 'durationSeconds' | 'priority'> {
  /** 16 kHz for speech models, 22.05 kHz for music analysis, 48 kHz for loudness and peaks. */
  sampleRate: 16_000 | 22_050 | 48_000;
  /**
   * 1 (default): mono, channels mixed down. 2: interleaved stereo as players play it (a mono
   * file on both channels at full level, more than two channels mixed down to two).
   */
  channels?: 1 | 2;
  /** Little-endian 16-bit integers (2 bytes a sample) or 32-bit floats in -1..1 (4 bytes). Default s16le. */
  sampleFormat?: 's16le' | 'f32le';
}

/** Mono or stereo as they are, more channels mixed to stereo; then the front centre (a mono file's one channel) on both sides. */
const STEREO = ['-af', 'aformat=channel_layouts=mono|stereo,pan=stereo|FL=FL+FC|FR=FR+FC'];

export const BYTES_PER_SAMPLE = { s16le: 2, f32le: 4 } as const;

/**
 * A song (a local file, or a stream from storage) as mono PCM at `sampleRate`, as a stream:
 * ffmpeg writes only as fast as the stream is read, so a long song never sits in memory.
 * Chunks may end inside a sample; the stream errors with an FfmpegError when decoding fails
 * (or is cancelled, or times out), and destroying it stops ffmpeg.
 */
export function decodeToPcm(binary: string | Promise<string>, source: string | Readable, options: DecodeOptions): Readable {
  // Its failure (ffmpeg missing, decoding failed) may come before the caller reads it.
  const out = holdErrors(new PassThrough({ highWaterMark: 256 * 1024 }));
  Promise.resolve(binary).then(
    (resolved) => pump(resolved, source, options, out),
    (error: unknown) => {
      if (typeof source !== 'string') source.destroy();
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return out;
}

function pump(binary: string, source: string | Readable, options: DecodeOptions, out: PassThrough): void {
  const format = options.sampleFormat ?? 's16le';
  const args = [
    ...songInputArgs(typeof source === 'string' ? { file: source } : 'stdin'),
    ...['-map', '0:a:0', '-vn', '-sn', '-dn', ...(options.channels === 2 ? STEREO : ['-ac', '1']), '-ar', String(options.sampleRate)],
    ...['-c:a', format === 's16le' ? 'pcm_s16le' : 'pcm_f32le', '-f', format, 'pipe:1'],
  ];
  const { sampleRate: _rate, sampleFormat: _format, channels: _channels, ...runOptions } = options;
  const running = startFfmpeg(binary, args, { ...runOptions, stdin: typeof source === 'string' ? undefined : source, stdout: 'pipe' });
  const stdout = running.stdout;
  if (out.destroyed) running.stop();
  out.once('close', () => running.stop()); // the reader gave up: ffmpeg need not go on
  // Not pipeline(): `out` must end with ffmpeg's own verdict (exit status, timeout), below. The
  // reader listens to `out`; stdout's failures come back as that verdict.
  // eslint-disable-next-line no-restricted-syntax -- both ends' failures are handled here
  stdout?.pipe(out, { end: false });
  Promise.all([stdout ? finished(stdout) : undefined, running.done]).then(
    () => out.end(),
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
}
