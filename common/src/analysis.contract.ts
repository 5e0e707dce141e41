import { z } from 'zod';

/**
 * The sonic analysis of a song (issue 12) as the song detail API exposes it, and the
 * library's analysis progress. AI playlists (discovery.contract.ts) are built on it.
 */

export const musicalMode = z.enum(['major', 'minor']);
export type MusicalMode = z.infer<typeof musicalMode>;

/** Energy as a word, for the song page's line ("120 BPM · A minor · high energy"). */
export const energyLevel = z.enum(['low', 'medium', 'high']);
export type EnergyLevel = z.infer<typeof energyLevel>;

const unit = z.number().min(0).max(1);

/** The measured features of an analysed song. 0..1 values are normalised for ranking. */
export const songFeatures = z.object({
  /** Beats per minute and the tracker's confidence (0..1). */
  bpm: z.number(),
  bpmConfidence: unit,
  /** Tonic as a pitch name ('A', 'C#', 'Bb'...) and mode; keyStrength 0..1. */
  key: z.string(),
  mode: musicalMode,
  keyStrength: unit,
  /** EBU R128 integrated loudness (LUFS) and loudness range (LU). */
  loudnessLufs: z.number(),
  loudnessRange: z.number(),
  energy: unit,
  energyLevel: energyLevel,
  danceability: unit,
  /** Mean spectral centroid in Hz; brightness (0..1) is the heard share of energy above 1.5 kHz on a log scale. */
  spectralCentroidHz: z.number(),
  brightness: unit,
  /** Note onsets per second. */
  onsetRate: z.number(),
  dynamicComplexity: z.number(),
  /** 0 = electronic, 1 = acoustic (an estimate). */
  acousticness: unit,
  /**
   * 0..1 probability that the song has a voice (sung, rapped or spoken), on an absolute scale:
   * 0.5 is the decision point (analyser version 2 on; before it a rough, uncalibrated estimate).
   */
  vocalPresence: unit,
  /** 0..1 how sure that estimate is (absent in analyses made before analyser version 2). */
  vocalConfidence: unit.optional(),
});
export type SongFeatures = z.infer<typeof songFeatures>;

/**
 * A song's `analysis` in the song detail API: null until analysed; 'analysed' with the
 * features and the one-line summary; 'failed' when the audio could not be analysed (the
 * song is skipped by AI playlists and the reason says why).
 */
export const songAnalysis = z.discriminatedUnion('status', [
  z.object({ status: z.literal('analysed'), analysedAt: z.string(), summary: z.string(), features: songFeatures }),
  z.object({ status: z.literal('failed'), analysedAt: z.string(), reason: z.string() }),
]);
export type SongAnalysis = z.infer<typeof songAnalysis>;

/**
 * A song's ReplayGain 2.0 values (issue 30): gains in dB that bring the song (track) or its
 * album to -18 LUFS, peaks linear (1 = full scale, a true-peak estimate). Measured by the
 * analysis; null on a song until then. A song without an album tag is its own album.
 */
export const replayGain = z.object({
  trackGain: z.number(),
  trackPeak: z.number().min(0),
  albumGain: z.number(),
  albumPeak: z.number().min(0),
});
export type ReplayGain = z.infer<typeof replayGain>;

/** "120 BPM · A minor · high energy". */
export function describeFeatures(features: Pick<SongFeatures, 'bpm' | 'key' | 'mode' | 'energyLevel'>): string {
  return `${Math.round(features.bpm)} BPM · ${features.key} ${features.mode} · ${features.energyLevel} energy`;
}

/** The library's analysis progress ("Analysed 412 of 530 songs"); `/api/health` has it too. */
export const analysisProgress = z.object({
  /** Songs in the library. */
  total: z.number().int(),
  /** Songs analysed: their features are known. */
  analysed: z.number().int(),
  /** Songs that could not be analysed (no decodable audio, silent, too short...). */
  failed: z.number().int(),
  /** Songs still waiting: total - analysed - failed. */
  pending: z.number().int(),
  /** True while the backfill (or an ingest analysis) is working. */
  running: z.boolean(),
  label: z.string(),
});
export type AnalysisProgress = z.infer<typeof analysisProgress>;

/** "Analysed 37 of 180 songs · 143 could not be analysed": a failed song is not an analysed one. */
export function analysisProgressLabel(analysed: number, total: number, failed = 0): string {
  return `Analysed ${analysed} of ${total} songs${failed > 0 ? ` · ${failed} could not be analysed` : ''}`;
}
