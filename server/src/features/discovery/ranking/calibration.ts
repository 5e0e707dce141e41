import type { SongFeatures } from '@encore/common/analysis.contract';
import type { PromptQuery } from '../prompt/prompt-query.js';
import { absoluteTempo, perceivedTempo } from './tempo.js';

/**
 * The library's own scales. What a listener calls fast, loud, energetic or bright is relative to
 * the music they have: "run" is the fast and loud end of whatever range the library spans. So
 * tempo, energy, loudness and brightness are read as their percentile among the library's songs,
 * blended with an absolute scale (the blend leans on the absolute one in a small library); the
 * oldest and newest parts are by the library's years. Vocal presence is a probability on its
 * own absolute scale and is read as it is.
 */
export interface Calibration {
  brightness(features: SongFeatures): number;
  vocals(features: SongFeatures): number;
  energy(features: SongFeatures): number;
  loudness(features: SongFeatures): number;
  /** Where a tempo reading (BPM) sits, 0 (the library's slowest) .. 1 (its fastest). */
  tempo(bpm: number): number;
  /** Whether a year is in the oldest (or newest) part of the library's years: its first third. */
  inEra(year: number, era: NonNullable<PromptQuery['era']>): boolean;
}

/** From this many songs on, the library's own scale weighs fully; fewer blend towards the absolute one. */
export const CALIBRATION_FULL_AT = 30;
/** The share of the library's years that is its oldest (or newest) part. */
export const ERA_SHARE = 1 / 3;

export const loudnessScale = (f: Pick<SongFeatures, 'loudnessLufs'>) => Math.min(1, Math.max(0, (f.loudnessLufs + 32) / 24));

/** The raw estimates, for a lone song (and tests). */
export const RAW: Calibration = {
  brightness: (f) => f.brightness,
  vocals: (f) => f.vocalPresence,
  energy: (f) => f.energy,
  loudness: loudnessScale,
  tempo: absoluteTempo,
  inEra: () => true,
};

/** How the library's percentile and the absolute scale mix, per dimension, in a full-size library. */
const RELATIVE_SHARE = { brightness: 1, energy: 0.5, loudness: 0.5, tempo: 0.7 };

export function calibrate(songs: readonly { features: SongFeatures; year?: number | null }[]): Calibration {
  if (songs.length < 2) return RAW;
  const weight = Math.min(1, (songs.length - 1) / (CALIBRATION_FULL_AT - 1));
  const relative = <T>(values: number[], absolute: (value: T) => number, pick: (value: T) => number, share: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    const w = weight * share;
    return (value: T) => (1 - w) * absolute(value) + w * percentile(sorted, pick(value));
  };
  const brightness = relative<SongFeatures>(
    songs.map((song) => song.features.brightness),
    RAW.brightness,
    (f) => f.brightness,
    RELATIVE_SHARE.brightness,
  );
  const energy = relative<SongFeatures>(
    songs.map((song) => song.features.energy),
    RAW.energy,
    (f) => f.energy,
    RELATIVE_SHARE.energy,
  );
  const loudness = relative<SongFeatures>(
    songs.map((song) => song.features.loudnessLufs),
    RAW.loudness,
    (f) => f.loudnessLufs,
    RELATIVE_SHARE.loudness,
  );
  const tempo = relative<number>(
    songs.map((song) => perceivedTempo(song.features).bpm),
    absoluteTempo,
    (bpm) => bpm,
    RELATIVE_SHARE.tempo,
  );
  const years = songs
    .map((song) => song.year)
    .filter((year): year is number => typeof year === 'number')
    .sort((a, b) => a - b);
  const inEra = (year: number, era: NonNullable<PromptQuery['era']>) => {
    if (years.length === 0) return false;
    // The share of the library strictly older (or newer) than this year.
    const beyond = era === 'oldest' ? countBelow(years, year, false) : years.length - countBelow(years, year, true);
    return beyond / years.length < ERA_SHARE;
  };
  return { brightness, vocals: RAW.vocals, energy, loudness, tempo, inEra };
}

/** Mid-rank percentile: ties share their middle place, so equal songs score alike. */
function percentile(sorted: readonly number[], value: number): number {
  return (countBelow(sorted, value, false) + countBelow(sorted, value, true)) / 2 / sorted.length;
}

/** How many of the ascending `sorted` are below `value` (or at most `value`), by binary search. */
function countBelow(sorted: readonly number[], value: number, inclusive: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const below = inclusive ? sorted[middle]! <= value : sorted[middle]! < value;
    if (below) low = middle + 1;
    else high = middle;
  }
  return low;
}
