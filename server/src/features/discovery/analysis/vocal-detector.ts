import { fftOf } from './fft.js';

/**
 * Vocal presence (issue 31): does a song have a voice, sung, rapped or spoken?
 *
 * What sets a voice apart from an instrument playing a melody is not its pitch (a synth lead or
 * a violin has vibrato and glides too) but its spectral envelope: a voice's formants move from
 * phoneme to phoneme, several times a second, whatever note it is on, while an instrument's
 * timbre stays put as its notes change. The detector measures that:
 *
 * 1. Up to `EXCERPTS` excerpts of `EXCERPT_SECONDS` spread over the song (the whole of a short
 *    one), as 1024-point spectra every 512 samples (at 22.05 kHz: 46 ms, every 23 ms), to 5 kHz.
 * 2. What is sustained is taken away bin by bin (the median over 1.5 s, as the first stage of a
 *    two-stage harmonic/percussive separation does): held chords, pads, bass and drones go, a
 *    voice or a melody stays. Drums stay too, but are not periodic, so step 3 leaves them out.
 * 3. In each frame, the predominant pitch (subharmonic summation, 80-900 Hz) and whether the
 *    frame is periodic (its harmonics stand above the level between them).
 * 4. The spectral envelope of the whole sound (not of what step 2 left: taking a level away
 *    bends a shape, and a tremolo would look like formants moving) sampled on that pitch's
 *    harmonics (an upper envelope) and read on a fixed log-frequency grid of 300 Hz-3.4 kHz,
 *    level and tilt removed, smoothed to its broad (formant-scale) shape: pitch-independent.
 *    Only frames where that pitch has several clear harmonics that hold a good share of the
 *    band's energy (one voice or instrument stands out, not a chord or a sine). Its change over
 *    70 ms on one pitch (less than 1.5 semitones apart) is the formant motion: an instrument's
 *    shape keeps still, a voice's moves.
 * 5. The syllable-rate (3-8 Hz) share of the modulation of the moving mid band's level.
 * 6. Envelope motion without a pitch, for what step 4 misses: whispers and consonants have no
 *    harmonics to read, and a quiet voice under a louder chord or arpeggio loses the pitch to
 *    it. A second stage takes away, bin by bin, what holds its frequency for ~250 ms (the median
 *    over `STEADY_FRAMES`): an instrument's partials hold still within a note (only its onset is
 *    left), a voice's glide with its intonation and its noise comes and goes, so what is left
 *    is mostly the voice, drum hits and note onsets. The broad shape of that remainder (band
 *    levels over 300 Hz-3.4 kHz, three frames averaged, level and tilt removed) is compared
 *    with itself 115 ms earlier: a drum hit or a note onset decays with its shape, a voice's
 *    formants move on from phoneme to phoneme.
 *
 * The formant motion (4) and the envelope motion (6) of the song's most voice-like seconds (a
 * voice need not sing throughout) are combined by a logistic model into a probability
 * (`presence`), with a `confidence` that is low when the song gives little to judge by (short,
 * silent, nothing that moves) or when the probability is near its middle.
 */

const FRAME = 1024;
const HOP = 512;
const BINS = FRAME / 2;
/** Excerpts analysed in a long song: enough of it (48 s) to find its voice, and fast. */
const EXCERPTS = 8;
const EXCERPT_SECONDS = 6;
const MAX_HZ = 5000;
const MIN_F0 = 80;
const MAX_F0 = 900;
const STEPS_PER_OCTAVE = 36;
const GRID = 12;
const GRID_LOW = 300;
const GRID_HIGH = 3400;
/** Frames between the two formant shapes compared (3 × 23 ms). */
const SHAPE_LAG = 3;
/** DCT terms kept of the shape (after level and tilt): formant-scale detail, not single partials. */
const SMOOTH = 4;
const FRAMES_PER_WINDOW = 43; // ~1 s
const SUSTAIN_FRAMES = 65; // ~1.5 s
const SUSTAIN_STEP = 11;
const MOVE_DB = 4;
/** Semitones the pitch may move between two frames whose shapes are compared (one source, not two). */
const MAX_JUMP = 1.5;
/** A frame is periodic when its harmonics below this hold `HARMONICITY` times the level between them. */
const HARMONICITY_HZ = 2500;
/** The pitch is found from the harmonics below this. */
const PITCH_HZ = 2500;
const HARMONICITY = 1.5;
/** A formant shape needs this many clear harmonics over 240 Hz-3.9 kHz holding this share of the energy there. */
const MIN_HARMONICS = 4;
const MIN_EXPLAINED = 0.3;
/** Frames (~250 ms) over which a bin's median is what holds still (step 6). */
const STEADY_FRAMES = 11;
/** Frames between the two envelope shapes compared in step 6 (5 × 23 ms). */
const ENVELOPE_LAG = 5;
/** Step 6 reads frames whose remainder is within this (dB) of the excerpt's loudest. */
const ENVELOPE_GATE_DB = 30;
/** Bands of step 6's shape further than this (dB) under its loudest read as that floor: empty, not shaped. */
const ENVELOPE_FLOOR_DB = 25;

export interface VocalMeasures {
  /** Seconds of audio analysed. */
  seconds: number;
  /** Share of frames that are periodic (a pitch stands out). */
  periodicShare: number;
  /** Mean formant-shape change (dB, mean over the grid) between periodic frames 70 ms apart on one pitch. */
  formantMotion: number;
  /** The same in the song's most voice-like seconds (the mean of its top third of 1-s windows). */
  formantMotionTop: number;
  /** Share of those frame pairs whose shape moved more than `MOVE_DB`. */
  formantMoves: number;
  /** Share of the moving mid band's (300 Hz-3.4 kHz) level modulation at 3-8 Hz (of 0.5-12 Hz). */
  syllabicModulation: number;
  /** The same less its strongest line (with its neighbours): periodic modulation (tremolo, beats) left out. */
  irregularModulation: number;
  /** Share of frames whose unsteady remainder (step 6) is loud enough to read. */
  unsteadyShare: number;
  /** Mean envelope-shape change (dB, mean over the grid) of the unsteady remainder over 115 ms (step 6). */
  envelopeMotion: number;
  /** The same in the song's most voice-like seconds (the mean of its top third of 1-s windows). */
  envelopeMotionTop: number;
}

export interface VocalEstimate {
  /** 0..1: probability that the song has a voice; 0.5 is the decision point. */
  presence: number;
  /** 0..1: how far the evidence is from undecided, less when there is little to judge by. */
  confidence: number;
  measures: VocalMeasures;
}

export function detectVocals(signal: Float32Array, sampleRate: number): VocalEstimate {
  const measures = measureVocals(signal, sampleRate);
  const presence = combine(measures);
  // Something to judge by: periodic frames (a voice that sings or speaks) or moving noise (one that whispers).
  const evidence = Math.min(1, measures.seconds / 10) * Math.min(1, Math.max(measures.periodicShare, measures.unsteadyShare) / 0.15);
  return { presence, confidence: Math.abs(presence - 0.5) * 2 * evidence, measures };
}

/**
 * Logistic combination of the formant motion and the envelope motion of the most voice-like
 * seconds, fitted (lightly regularised) on labelled sets A and C of
 * bench/discovery/vocal-detector.bench.ts together (half of each with a voice, so 0.5 is the
 * even-odds point); set B only tests it.
 */
function combine(m: VocalMeasures): number {
  if (m.seconds === 0) return 0;
  const z = -4.66 + 0.86 * m.formantMotionTop + 0.92 * m.envelopeMotionTop;
  return 1 / (1 + Math.exp(-z));
}

/** Where to read: the whole of a short signal, else `EXCERPTS` excerpts spread over its middle 90%. */
function excerpts(length: number, sampleRate: number): [number, number][] {
  const size = Math.round(EXCERPT_SECONDS * sampleRate);
  if (length <= size * EXCERPTS * 1.25) return [[0, length]];
  const first = Math.floor(length * 0.05);
  const span = Math.floor(length * 0.9) - size;
  return Array.from({ length: EXCERPTS }, (_, i) => {
    const start = first + Math.floor((span * i) / (EXCERPTS - 1));
    return [start, start + size] as [number, number];
  });
}

export function measureVocals(signal: Float32Array, sampleRate: number): VocalMeasures {
  const binHz = sampleRate / FRAME;
  const top = Math.min(BINS, Math.floor(MAX_HZ / binHz) + 1);
  const windows: Spectrogram[] = [];
  let seconds = 0;
  for (const [start, end] of excerpts(signal.length, sampleRate)) {
    const spectrogram = spectra(signal, start, end, top);
    if (spectrogram.frames < SHAPE_LAG + 1) continue;
    windows.push(spectrogram);
    seconds += (end - start) / sampleRate;
  }
  const tally = new Tally();
  for (const spectrogram of windows) analyseExcerpt(spectrogram, binHz, tally);
  return tally.summary(seconds);
}

interface Spectrogram {
  frames: number;
  top: number;
  /** Magnitudes, frame-major: [frame * top + bin]. */
  magnitude: Float32Array;
}

function spectra(signal: Float32Array, start: number, end: number, top: number): Spectrogram {
  const frames = end - start < FRAME ? 0 : Math.floor((end - start - FRAME) / HOP) + 1;
  const magnitude = new Float32Array(frames * top);
  const fft = realFft(FRAME);
  const window = hann(FRAME);
  const input = new Float64Array(FRAME);
  for (let f = 0; f < frames; f++) {
    const offset = start + f * HOP;
    for (let i = 0; i < FRAME; i++) input[i] = signal[offset + i]! * window[i]!;
    const { re, im } = fft(input);
    for (let k = 0; k < top; k++) magnitude[f * top + k] = Math.sqrt(re[k]! * re[k]! + im[k]! * im[k]!);
  }
  return { frames, top, magnitude };
}

/** Accumulates the per-frame and per-window measures of every excerpt. */
class Tally {
  frames = 0;
  periodic = 0;
  motionSum = 0;
  motionPairs = 0;
  moves = 0;
  windowMotion: number[] = [];
  modulationBand = 0;
  modulationIrregular = 0;
  modulationTotal = 0;

  unsteady = 0;
  envelopeSum = 0;
  envelopePairs = 0;
  windowEnvelope: number[] = [];

  summary(seconds: number): VocalMeasures {
    return {
      seconds,
      periodicShare: this.frames > 0 ? this.periodic / this.frames : 0,
      formantMotion: this.motionPairs > 0 ? this.motionSum / this.motionPairs : 0,
      formantMotionTop: topThirdMean(this.windowMotion),
      formantMoves: this.motionPairs > 0 ? this.moves / this.motionPairs : 0,
      syllabicModulation: this.modulationTotal > 0 ? this.modulationBand / this.modulationTotal : 0,
      irregularModulation: this.modulationTotal > 0 ? this.modulationIrregular / this.modulationTotal : 0,
      unsteadyShare: this.frames > 0 ? this.unsteady / this.frames : 0,
      envelopeMotion: this.envelopePairs > 0 ? this.envelopeSum / this.envelopePairs : 0,
      envelopeMotionTop: topThirdMean(this.windowEnvelope),
    };
  }
}

/** The mean of the largest third of `values` (0 when there are none). */
function topThirdMean(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => b - a);
  const count = Math.max(1, Math.ceil(sorted.length / 3));
  return sorted.slice(0, count).reduce((sum, value) => sum + value, 0) / count;
}

function analyseExcerpt(s: Spectrogram, binHz: number, tally: Tally): void {
  const { frames, top } = s;
  const original = s.magnitude;
  const moving = new Float32Array(original);
  removeSustained(moving, frames, top);
  const table = pitchTable(binHz);
  const pitch = new Float32Array(frames);
  const periodic = new Uint8Array(frames);
  const shapes = new Float32Array(frames * GRID);
  const midLevel = new Float64Array(frames);
  const compressed = new Float32Array(top);
  const peaks = new Float32Array(top);
  const low = Math.round(300 / binHz);
  const high = Math.min(top - 1, Math.round(3400 / binHz));
  // Frames more than 60 dB under the excerpt's loudest are silence.
  let excerptPeak = 0;
  for (const value of moving) excerptPeak = Math.max(excerptPeak, value);
  const frameFloor = Math.max(1e-7, excerptPeak * 1e-3);
  for (let f = 0; f < frames; f++) {
    const row = moving.subarray(f * top, (f + 1) * top);
    let mid = 0;
    for (let k = low; k <= high; k++) mid += row[k]! * row[k]!;
    midLevel[f] = 10 * Math.log10(mid + 1e-10);
    let level = 0;
    for (let k = 1; k < top; k++) level = Math.max(level, row[k]!);
    if (level < frameFloor) continue;
    // Magnitudes compressed against the frame's median, so that the floor between partials reads 0.
    const median = quickMedian(row, 1, top);
    for (let k = 0; k < top; k++) compressed[k] = Math.log1p(Math.max(0, row[k]! / (median * 2 + 1e-9) - 1));
    for (let k = 0; k < top; k++) peaks[k] = Math.max(compressed[k]!, compressed[k - 1] ?? 0, compressed[k + 1] ?? 0);
    let bestScore = 0;
    let best = 0;
    // Subharmonic summation less what lies halfway between the harmonics (which a subharmonic's odd multiples would claim).
    for (let c = 0; c < table.hz.length; c++) {
      let score = 0;
      for (let j = table.start[c]!; j < table.start[c + 1]!; j++) {
        const i = table.bin[j]!;
        score += table.weight[j]! * (compressed[i]! + table.fraction[j]! * (compressed[i + 1]! - compressed[i]!));
      }
      if (score > bestScore) {
        bestScore = score;
        best = table.hz[c]!;
      }
    }
    if (best === 0) continue;
    let on = 0;
    let between = 0;
    for (let h = 1; (h + 0.5) * best < HARMONICITY_HZ; h++) {
      on += peaks[Math.round((h * best) / binHz)]!;
      between += compressed[Math.round(((h + 0.5) * best) / binHz)]!;
    }
    if (on < 1 || on < HARMONICITY * between) continue;
    if (!envelopeShape(row, original.subarray(f * top, (f + 1) * top), best, binHz, shapes.subarray(f * GRID, (f + 1) * GRID))) continue;
    periodic[f] = 1;
    pitch[f] = best;
  }

  tally.frames += frames;
  for (let f = 0; f < frames; f++) tally.periodic += periodic[f]!;
  for (let w = 0; w < frames; w += FRAMES_PER_WINDOW) {
    const end = Math.min(frames, w + FRAMES_PER_WINDOW);
    let windowSum = 0;
    let windowPairs = 0;
    for (let f = Math.max(w, SHAPE_LAG); f < end; f++) {
      if (!periodic[f] || !periodic[f - SHAPE_LAG]) continue;
      // The same source: its pitch moved less than MAX_JUMP in between.
      if (Math.abs(12 * Math.log2(pitch[f]! / pitch[f - SHAPE_LAG]!)) > MAX_JUMP) continue;
      const distance = shapeDistance(shapes, f, f - SHAPE_LAG);
      windowSum += distance;
      windowPairs++;
      tally.motionSum += distance;
      tally.motionPairs++;
      if (distance > MOVE_DB) tally.moves++;
    }
    if (end - w >= FRAMES_PER_WINDOW / 2) tally.windowMotion.push(windowPairs >= 5 ? windowSum / windowPairs : 0);
  }
  const frameRate = (binHz * FRAME) / HOP;
  const modulation = modulationShare(midLevel, frameRate, 3, 8, 0.5, 12);
  tally.modulationBand += modulation.band;
  tally.modulationIrregular += modulation.irregular;
  tally.modulationTotal += modulation.total;
  envelopeMotion(moving, frames, top, binHz, frameFloor, tally);
}

const envelopeEdges = Array.from({ length: GRID + 1 }, (_, g) => GRID_LOW * (GRID_HIGH / GRID_LOW) ** ((g - 0.5) / (GRID - 1)));

/** Step 6: the envelope motion of what neither holds for 1.5 s nor holds its frequency for 250 ms. */
function envelopeMotion(moving: Float32Array, frames: number, top: number, binHz: number, frameFloor: number, tally: Tally): void {
  const unsteady = removeSteady(moving, frames, top);
  const from = envelopeEdges.map((hz) => Math.max(1, Math.min(top - 1, Math.round(hz / binHz))));
  // The remainder's level in the mid band, for frames where anything moves at all.
  const level = new Float64Array(frames).fill(-Infinity);
  let loudest = -Infinity;
  for (let f = 0; f < frames; f++) {
    let peak = 0;
    for (let k = 1; k < top; k++) peak = Math.max(peak, moving[f * top + k]!);
    if (peak < frameFloor) continue;
    let sum = 0;
    for (let k = from[0]!; k < from[GRID]!; k++) sum += unsteady[f * top + k]! ** 2;
    if (sum <= 0) continue;
    level[f] = 10 * Math.log10(sum);
    loudest = Math.max(loudest, level[f]!);
  }
  const readable = new Uint8Array(frames);
  for (let f = 1; f + 1 < frames; f++) if (level[f]! > loudest - ENVELOPE_GATE_DB) readable[f] = 1;
  const shapes = new Float32Array(frames * GRID);
  for (let f = 0; f < frames; f++) {
    if (!readable[f]) continue;
    tally.unsteady++;
    const out = shapes.subarray(f * GRID, (f + 1) * GRID);
    for (let g = 0; g < GRID; g++) {
      const to = Math.max(from[g]! + 1, from[g + 1]!);
      let sum = 0;
      for (let frame = f - 1; frame <= f + 1; frame++) for (let k = from[g]!; k < to; k++) sum += unsteady[frame * top + k]! ** 2;
      out[g] = 10 * Math.log10(sum / (3 * (to - from[g]!)) + 1e-12);
    }
    let high = -Infinity;
    for (let g = 0; g < GRID; g++) high = Math.max(high, out[g]!);
    for (let g = 0; g < GRID; g++) out[g] = Math.max(out[g]!, high - ENVELOPE_FLOOR_DB);
    normaliseShape(out);
  }
  for (let w = 0; w < frames; w += FRAMES_PER_WINDOW) {
    const end = Math.min(frames, w + FRAMES_PER_WINDOW);
    let sum = 0;
    let pairs = 0;
    for (let f = Math.max(w, ENVELOPE_LAG); f < end; f++) {
      if (!readable[f] || !readable[f - ENVELOPE_LAG]) continue;
      const distance = shapeDistance(shapes, f, f - ENVELOPE_LAG);
      sum += distance;
      pairs++;
    }
    tally.envelopeSum += sum;
    tally.envelopePairs += pairs;
    if (end - w >= FRAMES_PER_WINDOW / 2) tally.windowEnvelope.push(pairs >= 5 ? sum / pairs : 0);
  }
}

/** Mean absolute difference (dB, each grid point at most 20) of frames a and b's shapes. */
function shapeDistance(shapes: Float32Array, a: number, b: number): number {
  let distance = 0;
  for (let g = 0; g < GRID; g++) distance += Math.min(20, Math.abs(shapes[a * GRID + g]! - shapes[b * GRID + g]!));
  return distance / GRID;
}

/**
 * What is left after taking away, bin by bin, the median over `STEADY_FRAMES` around each frame:
 * partials that hold their frequency that long go (all but a note's onset), what glides or comes
 * and goes stays.
 */
function removeSteady(spectrum: Float32Array, frames: number, top: number): Float32Array {
  const out = new Float32Array(spectrum.length);
  const half = STEADY_FRAMES >> 1;
  const values = new Float32Array(STEADY_FRAMES);
  for (let k = 0; k < top; k++) {
    for (let f = 0; f < frames; f++) {
      let n = 0;
      for (let g = Math.max(0, f - half); g <= Math.min(frames - 1, f + half); g++) values[n++] = spectrum[g * top + k]!;
      const slice = values.subarray(0, n);
      slice.sort();
      out[f * top + k] = Math.max(0, spectrum[f * top + k]! - slice[n >> 1]!);
    }
  }
  return out;
}

/**
 * Takes away, bin by bin, what is sustained over `SUSTAIN_FRAMES` (~1.5 s): the median level
 * of the bin around each moment (measured every `SUSTAIN_STEP` frames, interpolated between).
 * Held chords, pads and drones go; what moves (a voice, a melody) stays.
 */
function removeSustained(spectrum: Float32Array, frames: number, top: number): void {
  const centres: number[] = [];
  for (let c = 0; c < frames; c += SUSTAIN_STEP) centres.push(c);
  if (centres[centres.length - 1] !== frames - 1) centres.push(frames - 1);
  const half = SUSTAIN_FRAMES >> 1;
  const level = new Float32Array(centres.length);
  const values = new Float32Array(SUSTAIN_FRAMES + 1);
  for (let k = 0; k < top; k++) {
    centres.forEach((centre, i) => {
      let n = 0;
      for (let f = Math.max(0, centre - half); f <= Math.min(frames - 1, centre + half); f++) values[n++] = spectrum[f * top + k]!;
      const slice = values.subarray(0, n);
      slice.sort();
      level[i] = slice[n >> 1]!;
    });
    let i = 0;
    for (let f = 0; f < frames; f++) {
      while (i < centres.length - 2 && centres[i + 1]! <= f) i++;
      const a = centres[i]!;
      const b = centres[i + 1] ?? a;
      const t = b > a ? (f - a) / (b - a) : 0;
      const sustained = level[i]! + t * ((level[i + 1] ?? level[i]!) - level[i]!);
      spectrum[f * top + k] = Math.max(0, spectrum[f * top + k]! - sustained);
    }
  }
}

/** Median of values[from..to) (copies them). */
function quickMedian(values: Float32Array, from: number, to: number): number {
  const copy = values.slice(from, to);
  copy.sort();
  return copy[copy.length >> 1] ?? 0;
}

interface PitchTable {
  hz: Float64Array;
  /** Candidate c's terms are start[c]..start[c+1]: a bin, the fraction towards the next, a weight. */
  start: Int32Array;
  bin: Int32Array;
  fraction: Float32Array;
  weight: Float32Array;
}
let pitchTableCache: { binHz: number; table: PitchTable } | undefined;

/**
 * The pitch candidates (80-900 Hz, a third of a semitone apart) and where each reads the
 * spectrum: its harmonics below `PITCH_HZ`, weighted 0.84^(h-1), and halfway between them, at
 * minus half that weight. Computed once per bin width.
 */
function pitchTable(binHz: number): PitchTable {
  if (pitchTableCache?.binHz === binHz) return pitchTableCache.table;
  const count = Math.floor(STEPS_PER_OCTAVE * Math.log2(MAX_F0 / MIN_F0)) + 1;
  const hz = Float64Array.from({ length: count }, (_, i) => MIN_F0 * 2 ** (i / STEPS_PER_OCTAVE));
  const start = new Int32Array(count + 1);
  const bins: number[] = [];
  const fractions: number[] = [];
  const weights: number[] = [];
  hz.forEach((f0, c) => {
    start[c] = bins.length;
    let weight = 1;
    for (let h = 1; h * f0 < PITCH_HZ; h++, weight *= 0.84) {
      for (const [position, sign] of [
        [h * f0, 1],
        [(h - 0.5) * f0, -0.5],
      ] as const) {
        const x = position / binHz;
        bins.push(Math.floor(x));
        fractions.push(x - Math.floor(x));
        weights.push(sign * weight);
      }
    }
  });
  start[count] = bins.length;
  const table = { hz, start, bin: Int32Array.from(bins), fraction: Float32Array.from(fractions), weight: Float32Array.from(weights) };
  pitchTableCache = { binHz, table };
  return table;
}

const gridHz = Array.from({ length: GRID }, (_, g) => GRID_LOW * (GRID_HIGH / GRID_LOW) ** (g / (GRID - 1)));

/**
 * The level (dB) of the frame's harmonics of `f0` in the whole spectrum (`whole`), read at the fixed grid frequencies by linear
 * interpolation in log frequency between neighbouring harmonics, then with its mean and its
 * tilt (least-squares slope) removed: the formant shape, whatever the note. Each harmonic's
 * level is the highest of it and its neighbours (an upper envelope: an instrument with only odd
 * harmonics has no holes), at most 40 dB under the strongest. False (no shape) unless, in what
 * moves (`row`), the pitch has at least `MIN_HARMONICS` harmonics within 30 dB of the strongest
 * over the grid's range and its harmonics hold `MIN_EXPLAINED` of the energy there: a frame
 * where one voice or instrument stands out, not a chord or a sine.
 */
function envelopeShape(row: Float32Array, whole: Float32Array, f0: number, binHz: number, out: Float32Array): boolean {
  const harmonicsHz: number[] = [];
  const raw: number[] = [];
  const wholeLevels: number[] = [];
  let explained = 0;
  for (let h = 1; h * f0 <= GRID_HIGH * 1.15 || harmonicsHz.length < 2; h++) {
    const bin = Math.round((h * f0) / binHz);
    if (bin + 1 >= row.length) break;
    const peak = Math.max(row[bin - 1] ?? 0, row[bin]!, row[bin + 1]!);
    if (h * f0 >= GRID_LOW * 0.8) explained += (row[bin - 1] ?? 0) ** 2 + row[bin]! ** 2 + row[bin + 1]! ** 2;
    harmonicsHz.push(Math.log(h * f0));
    raw.push(20 * Math.log10(peak + 1e-9));
    wholeLevels.push(20 * Math.log10(Math.max(whole[bin - 1] ?? 0, whole[bin]!, whole[bin + 1]!) + 1e-9));
  }
  if (harmonicsHz.length < 2) return false;
  let total = 0;
  for (let k = Math.round((GRID_LOW * 0.8) / binHz); k <= Math.min(row.length - 1, Math.round((GRID_HIGH * 1.15) / binHz)); k++) total += row[k]! ** 2;
  if (total <= 0 || explained / total < MIN_EXPLAINED) return false;
  const strongest = Math.max(...raw);
  let strong = 0;
  for (let h = 0; h < raw.length; h++) if (Math.exp(harmonicsHz[h]!) >= GRID_LOW * 0.8 && raw[h]! > strongest - 30) strong++;
  if (strong < MIN_HARMONICS) return false;
  const loudest = Math.max(...wholeLevels);
  const levels = wholeLevels.map((_, h) => Math.max(loudest - 40, wholeLevels[h - 1] ?? -Infinity, wholeLevels[h]!, wholeLevels[h + 1] ?? -Infinity));
  let h = 0;
  for (let g = 0; g < GRID; g++) {
    const x = Math.log(gridHz[g]!);
    while (h < harmonicsHz.length - 2 && harmonicsHz[h + 1]! < x) h++;
    const x0 = harmonicsHz[h]!;
    const x1 = harmonicsHz[h + 1] ?? x0;
    const t = x1 > x0 ? Math.min(1, Math.max(0, (x - x0) / (x1 - x0))) : 0;
    out[g] = levels[h]! + t * ((levels[h + 1] ?? levels[h]!) - levels[h]!);
  }
  normaliseShape(out);
  return true;
}

/** Removes a shape's level and tilt and keeps its broad (formant-scale) form: `SMOOTH` DCT terms. */
function normaliseShape(out: Float32Array): void {
  let mean = 0;
  for (let g = 0; g < GRID; g++) mean += out[g]!;
  mean /= GRID;
  let slope = 0;
  let spread = 0;
  for (let g = 0; g < GRID; g++) {
    const x = g - (GRID - 1) / 2;
    slope += x * (out[g]! - mean);
    spread += x * x;
  }
  slope /= spread;
  for (let g = 0; g < GRID; g++) out[g] = out[g]! - mean - slope * (g - (GRID - 1) / 2);
  if (SMOOTH > 0) {
    // Keeps the broad shape only (formants span several harmonics; beating partials and codec noise do not).
    const coefficients = Array.from({ length: SMOOTH }, (_, c) => {
      let value = 0;
      for (let g = 0; g < GRID; g++) value += out[g]! * Math.cos((Math.PI * (c + 1) * (g + 0.5)) / GRID);
      return (2 * value) / GRID;
    });
    for (let g = 0; g < GRID; g++) {
      let value = 0;
      for (let c = 0; c < SMOOTH; c++) value += coefficients[c]! * Math.cos((Math.PI * (c + 1) * (g + 0.5)) / GRID);
      out[g] = value;
    }
  }
}

/** Modulation power of `envelope` at lowHz-highHz and at floorHz-ceilHz, over 3-s windows. */
function modulationShare(
  envelope: Float64Array,
  frameRate: number,
  lowHz: number,
  highHz: number,
  floorHz: number,
  ceilHz: number,
): { band: number; irregular: number; total: number } {
  const size = 128;
  let band = 0;
  let irregular = 0;
  let total = 0;
  if (envelope.length < size) return { band, irregular, total };
  const powers = new Float64Array(size / 2);
  const fft = realFft(size);
  const window = hann(size);
  const input = new Float64Array(size);
  for (let start = 0; start + size <= envelope.length; start += size / 2) {
    let mean = 0;
    for (let i = 0; i < size; i++) mean += envelope[start + i]!;
    mean /= size;
    for (let i = 0; i < size; i++) input[i] = (envelope[start + i]! - mean) * window[i]!;
    const { re, im } = fft(input);
    let peak = -1;
    let windowBand = 0;
    for (let k = 1; k < size / 2; k++) {
      const hz = (k * frameRate) / size;
      powers[k] = 0;
      if (hz < floorHz || hz > ceilHz) continue;
      const power = re[k]! * re[k]! + im[k]! * im[k]!;
      powers[k] = power;
      total += power;
      if (hz >= lowHz && hz <= highHz) {
        windowBand += power;
        if (peak < 0 || power > powers[peak]!) peak = k;
      }
    }
    band += windowBand;
    // A periodic modulation (tremolo, a beat) is one line: what is left without it is irregular, as syllables are.
    irregular += windowBand - (peak < 0 ? 0 : powers[peak]! + (powers[peak - 1] ?? 0) + (powers[peak + 1] ?? 0));
  }
  return { band, irregular: Math.max(0, irregular), total };
}

const hannCache = new Map<number, Float64Array>();
function hann(size: number): Float64Array {
  let window = hannCache.get(size);
  if (!window) {
    window = new Float64Array(size);
    for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
    hannCache.set(size, window);
  }
  return window;
}

const realFftCache = new Map<number, (input: Float64Array) => { re: Float64Array; im: Float64Array }>();

/** The FFT of real input of length n (a power of two); the output arrays are reused. */
function realFft(n: number): (input: Float64Array) => { re: Float64Array; im: Float64Array } {
  const cached = realFftCache.get(n);
  if (cached) return cached;
  const transform = fftOf(n);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const real = (input: Float64Array) => {
    re.set(input);
    im.fill(0);
    transform(re, im);
    return { re, im };
  };
  realFftCache.set(n, real);
  return real;
}
