import type { SongFeatures } from '@encore/common/analysis.contract';

/**
 * The tempo a listener hears. Beat trackers err by octaves: a slow ballad with eighth-note
 * hi-hats reads at double its tempo, a fast song with sparse drums at half. The onset density
 * (onsets per beat at the read tempo) and the energy tell them apart where they can:
 * - sparse (about one onset per read beat) and soft at a high read tempo: half-time, a slow song;
 * - sparse at a high read tempo but not soft, or dense at a low one: it could be either, and
 *   the song is `ambiguous` (both readings are kept; "fast" and "slow" each take the worse).
 */
export interface PerceivedTempo {
  bpm: number;
  /** The other reading when the tracker's octave cannot be decided. */
  alternative?: number;
}

/** Read tempo at or above this with one onset per beat may be half-time. */
const HALF_TIME_FROM = 110;
/** Below this with three onsets per beat or more may be double-time. */
const DOUBLE_TIME_BELOW = 90;
const SPARSE_ONSETS_PER_BEAT = 1.3;
const DENSE_ONSETS_PER_BEAT = 3;
/** Softer than this, a sparse fast reading is a slow song. */
const SOFT_ENERGY = 0.35;

export function perceivedTempo(features: Pick<SongFeatures, 'bpm' | 'onsetRate' | 'energy'>): PerceivedTempo {
  const { bpm, onsetRate, energy } = features;
  if (!(bpm > 0)) return { bpm: 0 };
  const perBeat = (onsetRate * 60) / bpm;
  if (bpm >= HALF_TIME_FROM && perBeat < SPARSE_ONSETS_PER_BEAT) {
    if (energy < SOFT_ENERGY) return { bpm: bpm / 2 };
    return { bpm, alternative: bpm / 2 };
  }
  if (bpm < DOUBLE_TIME_BELOW && perBeat > DENSE_ONSETS_PER_BEAT) return { bpm, alternative: bpm * 2 };
  return { bpm };
}

/** The readings of a song's tempo: one, or two when ambiguous. */
export function tempoReadings(features: Pick<SongFeatures, 'bpm' | 'onsetRate' | 'energy'>): number[] {
  const tempo = perceivedTempo(features);
  return tempo.alternative === undefined ? [tempo.bpm] : [tempo.bpm, tempo.alternative];
}

/** An absolute scale of tempo: 60 BPM → 0, 180 BPM → 1 (log). */
export function absoluteTempo(bpm: number): number {
  return Math.min(1, Math.max(0, Math.log2(Math.max(bpm, 1) / 60) / Math.log2(3)));
}

/** Fast or slow by the words a reason uses: only when both readings agree. */
export function tempoWord(readings: number[]): 'fast' | 'slow' | undefined {
  if (readings.every((bpm) => bpm >= 120)) return 'fast';
  if (readings.every((bpm) => bpm <= 95)) return 'slow';
  return undefined;
}
