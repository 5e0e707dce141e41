import { fftOf } from './fft.js';

/**
 * The octave of a tracked tempo (issue 31). Beat trackers find the period of a song's pulse
 * well but often at the wrong metrical level: a ballad with sixteenth-note hi-hats reads at
 * twice its tempo, a half-time groove at half. Of the readings x/2, x and 2x this picks the one
 * a listener taps, by:
 * - how strongly the onsets recur at that period (a comb over the onset envelope at the best
 *   phase), in the whole band and in the low band (kick and bass accents): a faster level scores
 *   as well as the slower one only when the beats it adds sound at about half the strength of
 *   the slower level's or more (not when they are hi-hat subdivisions);
 * - a perceptual prior: listeners tap near 110-120 BPM when the music allows it (a log-Gaussian
 *   "resonance" over tempo);
 * - onset density and energy: many onsets per beat, loud and bright, pull toward the faster
 *   reading; sparse and soft toward the slower.
 * The margin between the best reading and the next tells how close a call the octave was.
 */

/** 46-ms frames every 11.6 ms at 22.05 kHz. */
const FRAME = 1024;
const HOP = 256;
/** Low band: kick drum and bass. */
const LOW_BAND_HZ = 200;
/** Listeners' preferred tapping tempo and how wide (in octaves) the preference is. */
const RESONANCE_BPM = 115;
const RESONANCE_OCTAVES = 0.9;
/** The tempi a reading may have. */
const MIN_BPM = 40;
const MAX_BPM = 210;

export interface OnsetEnvelopes {
  /** Frames per second of the envelopes. */
  frameRate: number;
  whole: Float64Array;
  low: Float64Array;
}

/**
 * Spectral-flux onset envelopes of `signal` (log-compressed magnitudes, level-independent),
 * whole band and below 200 Hz; each detrended by a half-second moving mean, half-wave
 * rectified and scaled to a mean of 1.
 */
export function onsetEnvelopes(signal: Float32Array, sampleRate: number): OnsetEnvelopes {
  const frames = signal.length < FRAME ? 0 : Math.floor((signal.length - FRAME) / HOP) + 1;
  const bins = FRAME / 2;
  const lowBins = Math.max(2, Math.round((LOW_BAND_HZ * FRAME) / sampleRate));
  let squares = 0;
  for (let i = 0; i < signal.length; i++) squares += signal[i]! * signal[i]!;
  // Compression relative to the song's own level: a quiet song's onsets count as a loud one's.
  const gain = 100 / Math.max(Math.sqrt(squares / Math.max(signal.length, 1)), 1e-6) / FRAME;
  const window = new Float64Array(FRAME);
  for (let i = 0; i < FRAME; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1));
  const transform = fftOf(FRAME);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  const magnitudes = [new Float64Array(bins), new Float64Array(bins)] as const;
  const previous = new Float64Array(bins);
  const whole = new Float64Array(frames);
  const low = new Float64Array(frames);
  // Two real frames per complex FFT (one as the real part, the next as the imaginary part):
  // half the transforms, the spectra separated by symmetry.
  for (let f = 0; f < frames; f += 2) {
    const second = f + 1 < frames;
    for (let i = 0; i < FRAME; i++) {
      re[i] = signal[f * HOP + i]! * window[i]!;
      im[i] = second ? signal[(f + 1) * HOP + i]! * window[i]! : 0;
    }
    transform(re, im);
    for (let k = 1; k < bins; k++) {
      const zr = re[k]!;
      const zi = im[k]!;
      const wr = re[FRAME - k]!;
      const wi = im[FRAME - k]!;
      const ar = zr + wr;
      const ai = zi - wi;
      const br = zi + wi;
      const bi = wr - zr;
      // Math.log(1 + x) rather than log1p: V8's log1p is slower, and small x needs no precision here.
      magnitudes[0][k] = Math.log(1 + gain * 0.5 * Math.sqrt(ar * ar + ai * ai));
      magnitudes[1][k] = Math.log(1 + gain * 0.5 * Math.sqrt(br * br + bi * bi));
    }
    for (let j = 0; j < (second ? 2 : 1); j++) {
      const frame = f + j;
      const magnitude = magnitudes[j]!;
      let sum = 0;
      let lowSum = 0;
      for (let k = 1; k < bins; k++) {
        const rise = magnitude[k]! - previous[k]!;
        previous[k] = magnitude[k]!;
        if (frame === 0 || rise <= 0) continue;
        sum += rise;
        if (k <= lowBins) lowSum += rise;
      }
      whole[frame] = sum;
      low[frame] = lowSum;
    }
  }
  const frameRate = sampleRate / HOP;
  return { frameRate, whole: normalise(whole, frameRate), low: normalise(low, frameRate) };
}

/** Detrended by a half-second moving mean, rectified, lightly smoothed and scaled to mean 1 (all zero when flat). */
function normalise(envelope: Float64Array, frameRate: number): Float64Array {
  const half = Math.round(frameRate / 4);
  const out = new Float64Array(envelope.length);
  let running = 0;
  let count = 0;
  for (let i = 0; i < Math.min(half, envelope.length); i++) {
    running += envelope[i]!;
    count++;
  }
  for (let i = 0; i < envelope.length; i++) {
    const enter = i + half;
    if (enter < envelope.length) {
      running += envelope[enter]!;
      count++;
    }
    const leave = i - half - 1;
    if (leave >= 0) {
      running -= envelope[leave]!;
      count--;
    }
    out[i] = Math.max(0, envelope[i]! - running / count);
  }
  // Smoothing over ±1 frame (±12 ms) forgives a player's timing.
  const smooth = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) smooth[i] = 0.5 * out[i]! + 0.25 * (out[i - 1] ?? out[i]!) + 0.25 * (out[i + 1] ?? out[i]!);
  let total = 0;
  for (const value of smooth) total += value;
  const mean = total / Math.max(smooth.length, 1);
  if (!(mean > 1e-9)) return new Float64Array(smooth.length);
  for (let i = 0; i < smooth.length; i++) smooth[i]! /= mean;
  return smooth;
}

/**
 * How strongly the envelope recurs every `period` frames: the mean envelope on a pulse train
 * of that period at its best phase (1: no better than anywhere; the envelope's mean is 1).
 */
export function pulseStrength(envelope: Float64Array, period: number): number {
  let best = 0;
  const steps = Math.max(1, Math.floor(period));
  for (let phase = 0; phase < steps; phase++) {
    let sum = 0;
    let count = 0;
    for (let at = phase; at < envelope.length - 1; at += period) {
      const i = Math.floor(at);
      const fraction = at - i;
      sum += envelope[i]! * (1 - fraction) + envelope[i + 1]! * fraction;
      count++;
    }
    if (count > 0) best = Math.max(best, sum / count);
  }
  return best;
}

export interface OctaveContext {
  /** Onsets per second (spectral-features.ts). */
  onsetRate: number;
  /** 0..1 energy (loudness, onsets, brightness). */
  energy: number;
}

export interface TempoReading {
  bpm: number;
  score: number;
}

export interface OctaveDecision {
  bpm: number;
  /** Score of the chosen reading minus the next best (log units): small is a close call. */
  margin: number;
  readings: TempoReading[];
}

const log2 = Math.log2;

// How much each piece of evidence counts, in log units (fitted on libraries A and C; see tempo.bench.ts).
/** The pulse's strength over the whole band, and in the low band (kick and bass say where the beat is). */
const WHOLE_WEIGHT = 0.5;
const LOW_WEIGHT = 2;
const PRIOR_WEIGHT = 1;
/**
 * More than two onsets per beat (eighth notes) make a reading less likely: it may be too slow.
 * One onset per beat is no sign of the opposite (a kick drum alone marks every beat).
 */
const DENSITY_WEIGHT = 0.25;
/** Energy above the middle favours the faster readings, below it the slower. */
const ENERGY_WEIGHT = 0.5;
/**
 * A faster reading keeps its whole chance while its pulse is at least 3/4 as strong as the
 * slower one's (the beats it adds sound at half the strength of the others or more): a half-time
 * groove whose bass and hats still mark every beat. Weaker than that, the added beats are
 * subdivisions (hi-hats between a ballad's beats) and the faster reading loses by how much.
 */
const EVEN_ENOUGH = Math.log(0.75);
/** What a change of pulse strength (log) from the next slower reading costs a faster one. */
const evenness = (change: number) => Math.min(0, change - EVEN_ENOUGH);

/** Picks x/2, x or 2x for a tracked tempo `bpm`. */
export function chooseOctave(bpm: number, envelopes: OnsetEnvelopes, context: OctaveContext): OctaveDecision {
  if (!(bpm > 0)) return { bpm: 0, margin: 0, readings: [] };
  const candidates = [bpm / 2, bpm, bpm * 2].filter((value) => value >= MIN_BPM && value <= MAX_BPM);
  // Four beats of the slowest reading at least, or the pulse says nothing (a very short clip).
  const heard = envelopes.whole.length >= (4 * 60 * envelopes.frameRate) / candidates[0]!;
  const strengths = candidates.map((candidate) => {
    const period = (60 * envelopes.frameRate) / candidate;
    return {
      whole: Math.log(Math.max(pulseStrength(envelopes.whole, period), 1e-3)),
      low: Math.log(Math.max(pulseStrength(envelopes.low, period), 1e-3)),
    };
  });
  // A faster reading's pulse is at most as strong as the next slower one's (its beats include
  // the slower reading's and add the ones between): how much weaker says how weak those are.
  // Each octave up pays for its own added beats.
  let pulse = 0;
  const readings = candidates.map((candidate, index) => {
    if (index > 0 && heard) {
      const now = strengths[index]!;
      const slower = strengths[index - 1]!;
      pulse += WHOLE_WEIGHT * evenness(now.whole - slower.whole) + LOW_WEIGHT * evenness(now.low - slower.low);
    }
    return { bpm: candidate, score: pulse + contextScore(candidate, context) };
  });
  const ranked = [...readings].sort((a, b) => b.score - a.score);
  const best = ranked[0]!;
  const next = ranked[1];
  return { bpm: best.bpm, margin: next ? best.score - next.score : Infinity, readings };
}

function contextScore(bpm: number, context: OctaveContext): number {
  const octaves = log2(bpm / RESONANCE_BPM);
  const prior = -((octaves / RESONANCE_OCTAVES) ** 2) / 2;
  const perBeat = (context.onsetRate * 60) / bpm;
  const density = -Math.max(0, log2(perBeat / 2));
  return PRIOR_WEIGHT * prior + DENSITY_WEIGHT * density + ENERGY_WEIGHT * octaves * (context.energy - 0.5);
}
