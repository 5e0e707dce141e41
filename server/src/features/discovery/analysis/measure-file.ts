import type { SongFeatures } from '@encore/common/analysis.contract';
import { decodeToPcm } from '../../../platform/media/ffmpeg.decode.js';
import type { PlaybackLoudness } from '../discovery.schema.js';
import { ANALYSIS_SAMPLE_RATE, MIN_ANALYSABLE_SECONDS, analyseSignal } from './analyse-signal.js';
import { collectPcm } from './collect-pcm.js';
import { measurePlaybackOfFile } from './playback-loudness.js';

/** At most this much of a song is analysed (its first 8 minutes): 42 MB of samples at most. */
export const MAX_ANALYSED_SECONDS = 8 * 60;

/** What a song's file is measured for, and how its decodes run. */
export interface MeasureRequest {
  kind: 'analyse' | 'loudness';
  /** A local path: ffmpeg must seek in an M4A whose index (moov) is at its end. */
  file: string;
  ffmpegPath: string;
  timeoutMs: number;
  /** The nice value of the decodes (background work gives way to serving). */
  priority?: number;
}

export type AnalysedFile = { features: SongFeatures; vector: number[]; loudness: PlaybackLoudness } | { reason: string };

/**
 * The measurements themselves, where they run (analysis.worker.ts: a thread of their own):
 * the features and how loud the song plays (two decodes of the file), or only the latter.
 * A file ffmpeg cannot decode is a reason, not an error; only a cancellation throws.
 */
export async function measureFile(request: MeasureRequest, signal: AbortSignal): Promise<AnalysedFile | PlaybackLoudness> {
  return request.kind === 'analyse' ? analyseFile(request, signal) : playback(request, signal);
}

async function analyseFile(request: MeasureRequest, signal: AbortSignal): Promise<AnalysedFile> {
  let samples: Float32Array;
  try {
    const pcm = decodeToPcm(request.ffmpegPath, request.file, {
      sampleRate: ANALYSIS_SAMPLE_RATE,
      sampleFormat: 'f32le',
      signal,
      timeoutMs: request.timeoutMs,
      ...(request.priority === undefined ? {} : { priority: request.priority }),
    });
    samples = (await collectPcm(pcm, MAX_ANALYSED_SECONDS * ANALYSIS_SAMPLE_RATE)).samples;
  } catch (error) {
    if (signal.aborted) throw error;
    return { reason: `The audio could not be decoded: ${messageOf(error)}` };
  }
  // ffmpeg may end without error and without a sample (a stream it cannot decode).
  if (samples.length === 0) return { reason: 'The file has no decodable audio' };
  if (samples.length < MIN_ANALYSABLE_SECONDS * ANALYSIS_SAMPLE_RATE) return { reason: `The audio is shorter than ${MIN_ANALYSABLE_SECONDS} seconds` };
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  if (peak < 1e-4) return { reason: 'The audio is silent' };
  const loudness = await playback(request, signal);
  return { ...analyseSignal(samples), loudness };
}

/** How loud the song plays; a failure is kept as such (the features stand without it: the song plays without ReplayGain). */
async function playback(request: MeasureRequest, signal: AbortSignal): Promise<PlaybackLoudness> {
  try {
    return await measurePlaybackOfFile({ decodeToPcm: (source, options) => decodeToPcm(request.ffmpegPath, source, options) }, request.file, {
      signal,
      timeoutMs: request.timeoutMs,
      ...(request.priority === undefined ? {} : { priority: request.priority }),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return { failed: `The loudness could not be measured: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
