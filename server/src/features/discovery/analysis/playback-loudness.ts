import os from 'node:os';
import type { Readable } from 'node:stream';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import type { PlaybackLoudness } from '../discovery.schema.js';
import { LoudnessMeter } from './loudness.js';
import { PeakMeter } from './true-peak.js';

/**
 * How loud a song plays, for ReplayGain (issue 30). Measured on its own decode, not on the
 * analysis's 22.05 kHz mono mix, for two reasons found by measuring against ffmpeg's ebur128:
 * - ffmpeg's mono mix is (L+R)/√2: a centred sound keeps its BS.1770 loudness, but what differs
 *   between the channels (reverb, wide mixes, hard-panned instruments) loses up to 3 dB, so
 *   the error depended on the song's stereo width and could not be corrected by a constant;
 * - at 22.05 kHz everything above 11 kHz is gone (K-weighting lifts it by 4 dB) and the peaks
 *   of the resampled signal are not the file's.
 * So: stereo at 48 kHz (a mono file on both channels at full level, as a player plays it; more
 * channels mixed down to two), the whole song (no 8-minute cut: only 100 ms sums are kept).
 */
export const PLAYBACK_SAMPLE_RATE = 48_000;

export async function measurePlayback(stream: Readable): Promise<Extract<PlaybackLoudness, { integratedLufs: number }>> {
  const loudness = new LoudnessMeter(PLAYBACK_SAMPLE_RATE, 2);
  const peaks = new PeakMeter(2);
  let carry = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 8); // whole stereo frames of two f32 samples
    carry = Buffer.from(bytes.subarray(whole));
    const samples = toFloats(bytes.subarray(0, whole));
    loudness.push(samples);
    peaks.push(samples);
  }
  const { integratedLufs, rangeLu } = loudness.result();
  const { samplePeak, truePeak } = peaks.result();
  return {
    integratedLufs: round(integratedLufs, 2),
    rangeLu: round(rangeLu, 2),
    samplePeak: round(samplePeak, 6),
    truePeak: round(truePeak, 6),
    seconds: round(loudness.seconds, 3),
  };
}

/** Decodes the file (a local path: an M4A's index may be at its end) and measures it. */
export function measurePlaybackOfFile(
  ffmpeg: Pick<Ffmpeg, 'decodeToPcm'>,
  file: string,
  options: { signal?: AbortSignal; timeoutMs: number; priority?: number },
): Promise<Extract<PlaybackLoudness, { integratedLufs: number }>> {
  const { signal, timeoutMs, priority } = options;
  return measurePlayback(
    ffmpeg.decodeToPcm(file, {
      sampleRate: PLAYBACK_SAMPLE_RATE,
      channels: 2,
      sampleFormat: 'f32le',
      signal,
      timeoutMs,
      ...(priority === undefined ? {} : { priority }),
    }),
  );
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** f32le bytes as floats: one copy into an aligned buffer (a chunk may start at any byte offset). */
function toFloats(bytes: Buffer): Float32Array {
  if (LITTLE_ENDIAN) return new Float32Array(Uint8Array.from(bytes).buffer);
  const samples = new Float32Array(bytes.length / 4);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readFloatLE(i * 4);
  return samples;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
