import type { SongFeatures } from '@encore/common/analysis.contract';

/**
 * The tempo a listener hears. Beat trackers err by octaves (a slow ballad with sixteenth-note
 * hi-hats reads at double its tempo, a half-time groove at half); since analyser version 3 the
 * analysis picks the octave itself (analysis/tempo-octave.ts: pulse strength in the whole and
 * low bands, onset density, energy, a perceptual prior) and lowers `bpmConfidence` when the
 * octave was a close call. The ranking trusts a confident reading; a doubtful one is
 * `ambiguous`: both it and the other octave are kept, and "fast" and "slow" each take the worse.
 */
export interface PerceivedTempo {
  bpm: number;
  /** The other reading when the octave was a close call. */
  alternative?: number;
}

/** Below this confidence the octave is in doubt (the analysis halves the regularity for a coin toss). */
export const TRUSTED_TEMPO_CONFIDENCE = 0.7;
/**
 * The other octave of a doubtful reading lies across the tempo listeners prefer to tap
 * (about 110 BPM): a doubtful 140 may be 70, a doubtful 70 may be 140.
 */
const OCTAVE_PIVOT_BPM = 110;

export function perceivedTempo(features: Pick<SongFeatures, 'bpm' | 'bpmConfidence'>): PerceivedTempo {
  const { bpm, bpmConfidence } = features;
  if (!(bpm > 0)) return { bpm: 0 };
  if (bpmConfidence >= TRUSTED_TEMPO_CONFIDENCE) return { bpm };
  return { bpm, alternative: bpm >= OCTAVE_PIVOT_BPM ? bpm / 2 : bpm * 2 };
}

/** The readings of a song's tempo: one, or two when ambiguous. */
export function tempoReadings(features: Pick<SongFeatures, 'bpm' | 'bpmConfidence'>): number[] {
  const tempo = perceivedTempo(features);
  return tempo.alternative === undefined ? [tempo.bpm] : [tempo.bpm, tempo.alternative];
}

/** An absolute scale of tempo: 60 BPM → 0, 180 BPM → 1 (log). */
export function absoluteTempo(bpm: number): number {
  return Math.min(1, Math.max(0, Math.log2(Math.max(bpm, 1) / 60) / Math.log2(3)));
}

/** Fast or slow by the words a reason uses: only when every reading agrees. */
export function tempoWord(readings: number[]): 'fast' | 'slow' | undefined {
  if (readings.length > 0 && readings.every((bpm) => bpm >= 120)) return 'fast';
  if (readings.length > 0 && readings.every((bpm) => bpm <= 95)) return 'slow';
  return undefined;
}
