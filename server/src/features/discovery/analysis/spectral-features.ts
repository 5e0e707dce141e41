/**
 * The features Encore computes itself from mono PCM (any rate): one pass of 2048-point FFTs
 * with a hop of 1024. Spectral centroid, the heard share of energy above 1.5 kHz (brightness),
 * spectral flux onsets (onset rate), the share of energy above 5 kHz and spectral flatness (for
 * the acoustic/electronic estimate), and the modulation of the voice band's share of energy at
 * syllable rate (vocal presence).
 */
import { fftOf } from './fft.js';

const FRAME = 2048;
const HOP = 1024;
/** Brightness is the share of the heard energy above this (the cut of MIRtoolbox's brightness). */
const BRIGHT_FROM_HZ = 1500;

export interface SpectralFeatures {
  centroidHz: number;
  /**
   * 0..1: the share of the A-weighted energy above 1.5 kHz. The plain centroid follows the bass
   * (a kick drum holds most of a mix's power, little of what is heard) and the voice; this
   * follows what a listener calls bright: cymbals, hi-hats, treble, against a dull or muffled mix.
   */
  trebleShare: number;
  onsetRate: number;
  highBandShare: number;
  flatness: number;
  /** 0..1: how much of the voice band's spectral-shape modulation lies at 3-8 Hz (syllables). */
  syllabicModulation: number;
  /** RMS of the whole signal (linear). */
  rms: number;
}

export function spectralFeatures(signal: Float32Array, sampleRate: number): SpectralFeatures {
  const fft = fftOf(FRAME);
  const bins = FRAME / 2;
  const window = hann(FRAME);
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  const previous = new Float64Array(bins);
  const binHz = sampleRate / FRAME;
  const voiceLow = Math.round(300 / binHz);
  const voiceHigh = Math.round(3400 / binHz);
  const highLow = Math.round(5000 / binHz);
  const trebleLow = Math.round(BRIGHT_FROM_HZ / binHz);
  const weighting = Float64Array.from({ length: bins }, (_, k) => aWeighting(k * binHz));
  const frames = signal.length < FRAME ? 0 : Math.floor((signal.length - FRAME) / HOP) + 1;
  const flux = new Float64Array(frames);
  const voiceShare = new Float64Array(frames);
  let centroidSum = 0;
  let weightSum = 0;
  let highSum = 0;
  let totalSum = 0;
  let heardSum = 0;
  let trebleSum = 0;
  let flatnessSum = 0;
  let flatnessFrames = 0;
  let squareSum = 0;
  for (let i = 0; i < signal.length; i++) squareSum += signal[i]! * signal[i]!;

  for (let f = 0; f < frames; f++) {
    const offset = f * HOP;
    for (let i = 0; i < FRAME; i++) {
      re[i] = signal[offset + i]! * window[i]!;
      im[i] = 0;
    }
    fft(re, im);
    let frameEnergy = 0;
    let frameCentroid = 0;
    let voice = 0;
    let high = 0;
    let logSum = 0;
    let fluxSum = 0;
    for (let k = 1; k < bins; k++) {
      const power = re[k]! * re[k]! + im[k]! * im[k]!;
      const magnitude = Math.sqrt(power);
      frameEnergy += power;
      frameCentroid += k * binHz * power;
      if (k >= voiceLow && k <= voiceHigh) voice += power;
      if (k >= highLow) high += power;
      const heard = power * weighting[k]!;
      heardSum += heard;
      if (k >= trebleLow) trebleSum += heard;
      logSum += Math.log(power + 1e-12);
      const rise = Math.log1p(magnitude) - Math.log1p(previous[k]!);
      if (rise > 0) fluxSum += rise;
      previous[k] = magnitude;
    }
    flux[f] = fluxSum;
    if (frameEnergy > 1e-6) {
      centroidSum += frameCentroid;
      weightSum += frameEnergy;
      highSum += high;
      totalSum += frameEnergy;
      const arithmetic = frameEnergy / (bins - 1);
      flatnessSum += Math.exp(logSum / (bins - 1)) / arithmetic;
      flatnessFrames++;
      voiceShare[f] = Math.log((voice + 1e-9) / frameEnergy);
    } else {
      voiceShare[f] = voiceShare[f - 1] ?? 0;
    }
  }
  const frameRate = sampleRate / HOP;
  return {
    centroidHz: weightSum > 0 ? centroidSum / weightSum : 0,
    trebleShare: heardSum > 0 ? trebleSum / heardSum : 0,
    onsetRate: countOnsets(flux) / Math.max(signal.length / sampleRate, 1e-9),
    highBandShare: totalSum > 0 ? highSum / totalSum : 0,
    flatness: flatnessFrames > 0 ? flatnessSum / flatnessFrames : 0,
    syllabicModulation: modulationShare(voiceShare, frameRate, 3, 8, 0.5, 10),
    rms: Math.sqrt(squareSum / Math.max(signal.length, 1)),
  };
}

/** The A-weighting of IEC 61672 as a power factor (1 at 1 kHz): the ear's sensitivity at soft levels. */
function aWeighting(hz: number): number {
  if (hz <= 0) return 0;
  const f2 = hz * hz;
  const ra = (12_194 ** 2 * f2 * f2) / ((f2 + 20.6 ** 2) * Math.sqrt((f2 + 107.7 ** 2) * (f2 + 737.9 ** 2)) * (f2 + 12_194 ** 2));
  return ra * ra * 1.5849; // +2.0 dB: 0 dB at 1 kHz
}

/** Peaks of the spectral flux above a moving median plus a margin, at least 50 ms apart. */
function countOnsets(flux: Float64Array): number {
  const half = 8;
  let count = 0;
  let last = -Infinity;
  const scratch: number[] = [];
  let mean = 0;
  for (const value of flux) mean += value;
  mean /= Math.max(flux.length, 1);
  for (let i = 1; i < flux.length - 1; i++) {
    scratch.length = 0;
    for (let j = Math.max(0, i - half); j <= Math.min(flux.length - 1, i + half); j++) scratch.push(flux[j]!);
    scratch.sort((a, b) => a - b);
    const median = scratch[scratch.length >> 1]!;
    const value = flux[i]!;
    if (value > median + 0.3 * mean && value >= flux[i - 1]! && value > flux[i + 1]! && i - last >= 1) {
      count++;
      last = i;
    }
  }
  return count;
}

/** The share of the envelope's modulation power between lowHz and highHz (of floorHz..ceilHz), over 6-s windows. */
function modulationShare(envelope: Float64Array, frameRate: number, lowHz: number, highHz: number, floorHz: number, ceilHz: number): number {
  const size = 128;
  if (envelope.length < size) return 0;
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const fft = fftOf(size);
  const window = hann(size);
  let band = 0;
  let total = 0;
  for (let start = 0; start + size <= envelope.length; start += size / 2) {
    let mean = 0;
    for (let i = 0; i < size; i++) mean += envelope[start + i]!;
    mean /= size;
    for (let i = 0; i < size; i++) {
      re[i] = (envelope[start + i]! - mean) * window[i]!;
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 1; k < size / 2; k++) {
      const hz = (k * frameRate) / size;
      if (hz < floorHz || hz > ceilHz) continue;
      const power = re[k]! * re[k]! + im[k]! * im[k]!;
      total += power;
      if (hz >= lowHz && hz <= highHz) band += power;
    }
  }
  return total > 0 ? band / total : 0;
}

function hann(size: number): Float64Array {
  const window = new Float64Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
  return window;
}
