import { analysisProgressLabel, describeFeatures, type AnalysisProgress, type SongAnalysis, type SongFeatures } from '@encore/common/analysis.contract';
import type { Logger } from '../../../platform/logger.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { SongFactsSource } from '../../library/library.port.js';
import type { AnalysisRow, DiscoveryRepository } from '../discovery.repository.js';
import { ANALYSER_VERSION } from './analyse-signal.js';
import { AnalysisCancelledError, AnalysisPoolClosedError, type AnalysisPool } from './analysis-pool.js';
import type { AnalysedFile } from './measure-file.js';

export { MAX_ANALYSED_SECONDS } from './measure-file.js';
/** Song ids read per page of the backfill; only those without a current analysis are analysed. */
const BACKFILL_PAGE = 500;

export interface AnalysisServiceDeps {
  repository: DiscoveryRepository;
  storage: Storage;
  /** Where the measurements run: threads of their own, never the server's (analysis-pool.ts). */
  pool: Pick<AnalysisPool, 'analyse' | 'loudness' | 'maxThreads'>;
  /** The collection's song ids in pages, and how many songs it holds. */
  songs: Pick<SongFactsSource, 'idsAfter' | 'count'>;
  /** The storage key of a song, or undefined when it is gone. */
  songKey(songId: number): Promise<string | undefined>;
  logger: Logger;
  decodeTimeoutMs?: number;
  /** Hears of each song analysed (the fresh AI playlists are ranked again); its failure is logged, the analysis stands. */
  onAnalysed?: (songId: number) => Promise<void>;
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
      await this.deps.onAnalysed?.(songId).catch((error: unknown) => this.deps.logger.warn({ err: error, songId }, 'an analysed-song listener failed'));
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
      const loudness = await this.withFile(key, signal, (file) => this.deps.pool.loudness(file, this.decodeTimeoutMs(), signal));
      await this.deps.repository.saveLoudness(songId, 'reason' in loudness ? { failed: loudness.reason } : loudness.value);
      return true;
    } finally {
      this.inFlight.delete(songId);
    }
  }

  /** The features, and how loud the song plays: two decodes of the same local file, on an analysis thread. */
  private async measure(key: string, signal?: AbortSignal): Promise<AnalysedFile> {
    const measured = await this.withFile(key, signal, (file) => this.deps.pool.analyse(file, this.decodeTimeoutMs(), signal));
    return 'reason' in measured ? measured : measured.value;
  }

  /** `work` on the song's file as a local path; a file storage cannot give or that could not be measured is a reason. */
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
      // Not the file's fault: the job stops (and is retried), the song is not marked failed.
      if (signal?.aborted || error instanceof AnalysisPoolClosedError || error instanceof AnalysisCancelledError) throw error;
      if (!opened) return { reason: "The song's file could not be read from storage" };
      return { reason: `The audio could not be decoded: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private decodeTimeoutMs(): number {
    return this.deps.decodeTimeoutMs ?? 5 * 60_000;
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
        // As many songs at once as the pool may run when the server is idle; it runs fewer while requests come.
        await eachAtOnce(
          page.filter((songId) => !current.has(songId)),
          this.deps.pool.maxThreads,
          async (id) => {
            signal?.throwIfAborted();
            const outcome = await this.analyseSong(id, signal);
            if (outcome !== 'gone') tally[outcome]++;
            await onProgress?.(tally.analysed + tally.failed);
          },
        );
        // Analysed before playback loudness was measured: only that is measured (one decode, no features).
        await eachAtOnce(await this.deps.repository.withoutLoudness(page), this.deps.pool.maxThreads, async (id) => {
          signal?.throwIfAborted();
          if (await this.measureLoudnessOf(id, signal)) tally.loudness++;
        });
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

/** `work` on every item, `width` at a time, in order of start. */
async function eachAtOnce<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

export function toSongAnalysis(row: AnalysisRow | undefined): SongAnalysis | null {
  if (!row) return null;
  const analysedAt = row.analysedAt.toISOString();
  if (row.status === 'failed') return { status: 'failed', analysedAt, reason: row.reason ?? 'The audio could not be analysed' };
  const features = row.features as SongFeatures;
  return { status: 'analysed', analysedAt, summary: describeFeatures(features), features };
}
