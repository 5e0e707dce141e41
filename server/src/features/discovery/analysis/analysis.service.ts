import { analysisProgressLabel, describeFeatures, type AnalysisProgress, type SongAnalysis, type SongFeatures } from '@encore/common/analysis.contract';
import type { Logger } from '../../../platform/logger.js';
import type { Ffmpeg } from '../../../platform/media/ffmpeg.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { SongFactsSource } from '../../library/library.port.js';
import type { AnalysisRow, DiscoveryRepository } from '../discovery.repository.js';
import type { PlaybackLoudness } from '../discovery.schema.js';
import { ANALYSER_VERSION, ANALYSIS_SAMPLE_RATE, MIN_ANALYSABLE_SECONDS, analyseSignal } from './analyse-signal.js';
import { collectPcm } from './collect-pcm.js';
import { measurePlaybackOfFile } from './playback-loudness.js';

/** At most this much of a song is analysed (its first 8 minutes): 42 MB of samples at most. */
export const MAX_ANALYSED_SECONDS = 8 * 60;
/** Song ids read per page of the backfill; only those without a current analysis are analysed. */
const BACKFILL_PAGE = 500;

export interface AnalysisServiceDeps {
  repository: DiscoveryRepository;
  storage: Storage;
  ffmpeg: Pick<Ffmpeg, 'decodeToPcm'>;
  /** The collection's song ids in pages, and how many songs it holds. */
  songs: Pick<SongFactsSource, 'idsAfter' | 'count'>;
  /** The storage key of a song, or undefined when it is gone. */
  songKey(songId: number): Promise<string | undefined>;
  logger: Logger;
  decodeTimeoutMs?: number;
}

export type AnalysisOutcome = 'analysed' | 'failed' | 'gone';

/** Sonic analysis of songs: one at ingest, all pending ones in the backfill. */
export class AnalysisService {
  private backfillRunning = false;
  private readonly inFlight = new Set<number>();

  constructor(private readonly deps: AnalysisServiceDeps) {}

  /** Decodes and analyses one song and stores the outcome; an undecodable song is marked failed. */
  async analyseSong(songId: number, signal?: AbortSignal): Promise<AnalysisOutcome> {
    const key = await this.deps.songKey(songId);
    if (key === undefined) return 'gone';
    this.inFlight.add(songId);
    try {
      const measured = await this.measure(key, signal);
      if ('reason' in measured) {
        this.deps.logger.info({ songId, reason: measured.reason }, 'song analysis failed');
        await this.deps.repository.saveAnalysis({ songId, status: 'failed', reason: measured.reason, analyserVersion: ANALYSER_VERSION });
        return 'failed';
      }
      await this.deps.repository.saveAnalysis({
        songId,
        status: 'analysed',
        features: measured.features,
        vector: measured.vector,
        loudness: measured.loudness,
        analyserVersion: ANALYSER_VERSION,
      });
      return 'analysed';
    } finally {
      this.inFlight.delete(songId);
    }
  }

  /**
   * Measures only how loud the song plays (a song analysed before playback loudness existed):
   * its features stay as they are. False when the song is gone.
   */
  async measureLoudnessOf(songId: number, signal?: AbortSignal): Promise<boolean> {
    const key = await this.deps.songKey(songId);
    if (key === undefined) return false;
    this.inFlight.add(songId);
    try {
      const loudness = await this.withFile(key, signal, (file) => this.playback(file, signal));
      await this.deps.repository.saveLoudness(songId, 'reason' in loudness ? { failed: loudness.reason } : loudness.value);
      return true;
    } finally {
      this.inFlight.delete(songId);
    }
  }

  /** The features, and how loud the song plays: two decodes of the same local file. */
  private async measure(
    key: string,
    signal?: AbortSignal,
  ): Promise<{ features: SongFeatures; vector: number[]; loudness: PlaybackLoudness } | { reason: string }> {
    const decoded = await this.withFile(key, signal, async (file) => {
      const samples = await this.decode(file, signal);
      return { samples, loudness: samples.length > 0 ? await this.playback(file, signal) : { failed: 'The file has no decodable audio' } };
    });
    if ('reason' in decoded) return decoded;
    const { samples, loudness } = decoded.value;
    // ffmpeg may end without error and without a sample (a stream it cannot decode).
    if (samples.length === 0) return { reason: 'The file has no decodable audio' };
    if (samples.length < MIN_ANALYSABLE_SECONDS * ANALYSIS_SAMPLE_RATE) return { reason: `The audio is shorter than ${MIN_ANALYSABLE_SECONDS} seconds` };
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    if (peak < 1e-4) return { reason: 'The audio is silent' };
    return { ...analyseSignal(samples), loudness };
  }

  /** `work` on the song's file as a local path; a file storage cannot give or ffmpeg cannot decode is a reason. */
  private async withFile<T>(key: string, signal: AbortSignal | undefined, work: (file: string) => Promise<T>): Promise<{ value: T } | { reason: string }> {
    let opened = false;
    try {
      return {
        value: await this.deps.storage.withLocalFile(key, (file) => {
          opened = true;
          return work(file);
        }),
      };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (!opened) return { reason: "The song's file could not be read from storage" };
      return { reason: `The audio could not be decoded: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** How loud the song plays; a failure is kept as such (the features stand without it: the song plays without ReplayGain). */
  private async playback(file: string, signal?: AbortSignal): Promise<PlaybackLoudness> {
    try {
      return await measurePlaybackOfFile(this.deps.ffmpeg, file, { signal, timeoutMs: this.decodeTimeoutMs() });
    } catch (error) {
      if (signal?.aborted) throw error;
      return { failed: `The loudness could not be measured: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private decodeTimeoutMs(): number {
    return this.deps.decodeTimeoutMs ?? 5 * 60_000;
  }

  /** From the file, not a pipe: ffmpeg must seek in an M4A whose index (moov) is at its end. */
  private async decode(file: string, signal?: AbortSignal): Promise<Float32Array> {
    const pcm = this.deps.ffmpeg.decodeToPcm(file, {
      sampleRate: ANALYSIS_SAMPLE_RATE,
      sampleFormat: 'f32le',
      signal,
      timeoutMs: this.decodeTimeoutMs(),
    });
    return (await collectPcm(pcm, MAX_ANALYSED_SECONDS * ANALYSIS_SAMPLE_RATE)).samples;
  }

  /**
   * Analyses every song without a current analysis, in id order. Resumable: what is done is
   * stored song by song, so a run that stops (crash, restart) leaves the rest to the next run.
   */
  async backfill(signal?: AbortSignal, onProgress?: (done: number) => Promise<void> | void): Promise<{ analysed: number; failed: number; loudness: number }> {
    const tally = { analysed: 0, failed: 0, loudness: 0 };
    if (this.backfillRunning) return tally;
    this.backfillRunning = true;
    try {
      let cursor = 0;
      for (;;) {
        const page = await this.deps.songs.idsAfter(cursor, BACKFILL_PAGE);
        if (page.length === 0) return tally;
        cursor = page[page.length - 1]!;
        const current = await this.deps.repository.currentAmong(page, ANALYSER_VERSION);
        for (const id of page.filter((songId) => !current.has(songId))) {
          signal?.throwIfAborted();
          const outcome = await this.analyseSong(id, signal);
          if (outcome !== 'gone') tally[outcome]++;
          await onProgress?.(tally.analysed + tally.failed);
        }
        // Analysed before playback loudness was measured: only that is measured (one decode, no features).
        for (const id of await this.deps.repository.withoutLoudness(page)) {
          signal?.throwIfAborted();
          if (await this.measureLoudnessOf(id, signal)) tally.loudness++;
        }
      }
    } finally {
      this.backfillRunning = false;
    }
  }

  async progress(): Promise<AnalysisProgress> {
    // The repository counts every song with an outcome, failed ones included.
    const [total, counts] = await Promise.all([this.deps.songs.count(), this.deps.repository.counts()]);
    const analysed = counts.analysed - counts.failed;
    return {
      total,
      analysed,
      failed: counts.failed,
      pending: Math.max(0, total - counts.analysed),
      running: this.backfillRunning || this.inFlight.size > 0,
      label: analysisProgressLabel(analysed, total, counts.failed),
    };
  }

  async analysisOf(songId: number): Promise<SongAnalysis | null> {
    return toSongAnalysis(await this.deps.repository.findAnalysis(songId));
  }
}

export function toSongAnalysis(row: AnalysisRow | undefined): SongAnalysis | null {
  if (!row) return null;
  const analysedAt = row.analysedAt.toISOString();
  if (row.status === 'failed') return { status: 'failed', analysedAt, reason: row.reason ?? 'The audio could not be analysed' };
  const features = row.features as SongFeatures;
  return { status: 'analysed', analysedAt, summary: describeFeatures(features), features };
}
