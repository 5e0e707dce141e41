/**
 * Library C: a development set for tempo and its octave (issue 31), built unlike library A
 * (ffmpeg expressions with a kick on every beat, a snare every other beat and off-beat hats).
 * Every song is synthesised here sample by sample (drum kit voices, Karplus-Strong plucks,
 * piano-like decaying partials, slow-attack pads, a bass) over a chord progression, with
 * rhythms chosen because beat trackers read them an octave off: half-time drums (snare on 3) at
 * fast tempi, sixteenth hi-hats over slow ballads, swing, songs without drums where only note
 * onsets carry the beat, syncopated bass lines, double-time snare fills, a 12/8 shuffle.
 * Each song is labelled with the tempo a listener taps and whether it is fast (≥ 115) or slow
 * (≤ 95); tempi between are labelled neither. A fixed seed makes every run build the same set.
 * Written as 16-bit mono WAV at 22.05 kHz (the analyser's rate).
 */
import path from 'node:path';
import type { SongSpec } from './analysed-library.js';
import { writeWav } from './vocal-sets/audio-kit.js';

export type StyleC =
  | 'rock'
  | 'half-time'
  | 'ballad-16ths'
  | 'swing'
  | 'piano-chords'
  | 'plucked-arpeggio'
  | 'pad-and-pluck'
  | 'syncopated-bass'
  | 'double-time-fills'
  | 'four-on-the-floor'
  | 'shuffle-12-8';

export interface LabelsC {
  index: number;
  style: StyleC;
  /** The tempo a listener taps. */
  bpm: number;
  /** true: fast (≥ 115 BPM), false: slow (≤ 95 BPM), null: in between. */
  fast: boolean | null;
  loud: boolean;
}

const RATE = 22_050;
const SECONDS = 20;

/** [style, tempo range] in the order the songs are made; each appears as often as listed. */
const PLAN: [StyleC, number, number][] = [
  ['rock', 70, 92],
  ['rock', 120, 165],
  ['rock', 75, 90],
  ['rock', 125, 150],
  ['half-time', 135, 175],
  ['half-time', 140, 170],
  ['half-time', 130, 160],
  ['half-time', 145, 175],
  ['ballad-16ths', 56, 84],
  ['ballad-16ths', 60, 80],
  ['ballad-16ths', 62, 88],
  ['ballad-16ths', 54, 76],
  ['ballad-16ths', 66, 90],
  ['swing', 120, 180],
  ['swing', 70, 92],
  ['swing', 130, 175],
  ['swing', 80, 95],
  ['piano-chords', 60, 88],
  ['piano-chords', 118, 150],
  ['piano-chords', 66, 92],
  ['piano-chords', 120, 140],
  ['plucked-arpeggio', 52, 80],
  ['plucked-arpeggio', 60, 88],
  ['plucked-arpeggio', 120, 145],
  ['plucked-arpeggio', 55, 75],
  ['pad-and-pluck', 50, 75],
  ['pad-and-pluck', 60, 85],
  ['pad-and-pluck', 100, 112],
  ['syncopated-bass', 96, 124],
  ['syncopated-bass', 88, 100],
  ['syncopated-bass', 115, 130],
  ['double-time-fills', 72, 92],
  ['double-time-fills', 125, 160],
  ['double-time-fills', 140, 180],
  ['double-time-fills', 66, 86],
  ['four-on-the-floor', 120, 135],
  ['four-on-the-floor', 118, 128],
  ['shuffle-12-8', 52, 70],
  ['shuffle-12-8', 58, 72],
  ['rock', 100, 112],
];

const ROOTS = [110, 123.47, 130.81, 146.83, 164.81, 174.61, 196];
/** Chord roots in semitones above the tonic and their quality: I-V-vi-IV and i-VI-III-VII. */
const PROGRESSIONS: [number, boolean][][] = [
  [
    [0, true],
    [7, true],
    [9, false],
    [5, true],
  ],
  [
    [0, false],
    [8, true],
    [3, true],
    [10, true],
  ],
];

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

export const LIBRARY_C: SongSpec<LabelsC>[] = (() => {
  const random = seeded(31);
  return PLAN.map(([style, low, high], index) => {
    const bpm = Math.round(low + random() * (high - low));
    const loud = random() < 0.5;
    const labels: LabelsC = { index, style, bpm, fast: bpm >= 115 ? true : bpm <= 95 ? false : null, loud };
    const songSeed = Math.floor(random() * 1e9);
    return { labels, synthesise: (dir: string) => writeSong(dir, labels, songSeed) };
  });
})();

async function writeSong(dir: string, labels: LabelsC, seed: number): Promise<string> {
  const samples = renderSong(labels, seed);
  const file = path.join(dir, `c-${String(labels.index).padStart(2, '0')}.wav`);
  await writeWav(file, samples, RATE);
  return file;
}

/** The instruments: each adds one note or hit into the song's buffer. */
class Mix {
  readonly out = new Float32Array(RATE * SECONDS);
  constructor(private readonly random: () => number) {}

  private span(time: number, seconds: number): [number, number] {
    const start = Math.max(0, Math.round(time * RATE));
    return [start, Math.min(this.out.length, start + Math.round(seconds * RATE))];
  }

  kick(time: number, velocity: number): void {
    const [start, end] = this.span(time, 0.35);
    let phase = 0;
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      phase += (2 * Math.PI * (48 + 90 * Math.exp(-t * 35))) / RATE;
      this.out[i]! += velocity * 0.9 * Math.sin(phase) * Math.exp(-t * 9);
    }
  }

  snare(time: number, velocity: number): void {
    const [start, end] = this.span(time, 0.25);
    let low = 0;
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const noise = 2 * this.random() - 1;
      low += 0.35 * (noise - low);
      this.out[i]! += velocity * (0.45 * (noise - low) * Math.exp(-t * 18) + 0.3 * Math.sin(2 * Math.PI * 185 * t) * Math.exp(-t * 30));
    }
  }

  hat(time: number, velocity: number, open = false): void {
    const [start, end] = this.span(time, open ? 0.3 : 0.06);
    let previous = 0;
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const noise = 2 * this.random() - 1;
      // A first difference: white noise tilted to the top octaves.
      this.out[i]! += velocity * 0.22 * (noise - previous) * Math.exp(-t * (open ? 12 : 70));
      previous = noise;
    }
  }

  bass(time: number, hz: number, seconds: number, velocity: number): void {
    const [start, end] = this.span(time, seconds);
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const release = Math.min(1, (end - i) / (0.02 * RATE));
      const tone = Math.sin(2 * Math.PI * hz * t) + 0.35 * Math.sin(4 * Math.PI * hz * t) + 0.15 * Math.sin(6 * Math.PI * hz * t);
      this.out[i]! += velocity * 0.35 * tone * Math.exp(-t * 2.5) * Math.min(1, t * 400) * release;
    }
  }

  /** A plucked string (Karplus-Strong): a noise burst circulating in a delay line one period long. */
  pluck(time: number, hz: number, velocity: number, seconds = 1.2): void {
    const [start, end] = this.span(time, seconds);
    const period = Math.max(2, Math.round(RATE / hz));
    const line = Float32Array.from({ length: period }, () => 2 * this.random() - 1);
    let at = 0;
    for (let i = start; i < end; i++) {
      const next = (at + 1) % period;
      const value = line[at]!;
      line[at] = 0.497 * (value + line[next]!);
      at = next;
      this.out[i]! += velocity * 0.3 * value;
    }
  }

  /** Piano-like: a sharp attack and partials that decay faster the higher they are. */
  piano(time: number, notes: number[], seconds: number, velocity: number): void {
    const [start, end] = this.span(time, seconds);
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const release = Math.min(1, (end - i) / (0.05 * RATE));
      let sum = 0;
      for (const hz of notes)
        for (let partial = 1; partial <= 4; partial++)
          sum += (Math.sin(2 * Math.PI * hz * partial * t) / partial ** 1.5) * Math.exp(-t * (1.2 + partial * 0.9));
      this.out[i]! += (velocity * 0.16 * sum * Math.min(1, t * 800) * release) / notes.length ** 0.5;
    }
  }

  /** A pad: slow attack and release, slightly detuned pairs. */
  pad(time: number, notes: number[], seconds: number, velocity: number): void {
    const [start, end] = this.span(time, seconds);
    const total = end - start;
    for (let i = start; i < end; i++) {
      const t = (i - start) / RATE;
      const envelope = Math.min(1, t / 0.4, (total - (i - start)) / (0.4 * RATE));
      let sum = 0;
      for (const hz of notes) sum += Math.sin(2 * Math.PI * hz * t) + Math.sin(2 * Math.PI * hz * 1.004 * t);
      this.out[i]! += (velocity * 0.06 * sum * envelope) / notes.length ** 0.5;
    }
  }
}

const semitone = (hz: number, steps: number) => hz * 2 ** (steps / 12);
const triad = (root: number, major: boolean) => [root, semitone(root, major ? 4 : 3), semitone(root, 7)];

function renderSong(labels: LabelsC, seed: number): Float32Array {
  const random = seeded(seed);
  const mix = new Mix(random);
  const beat = 60 / labels.bpm;
  const tonic = ROOTS[labels.index % ROOTS.length]!;
  const progression = PROGRESSIONS[labels.index % PROGRESSIONS.length]!;
  // Players are not machines: a few milliseconds of timing and some velocity vary.
  const jitter = () => (random() - 0.5) * 0.008;
  const vary = (velocity: number) => velocity * (0.85 + 0.3 * random());
  const beatsPerBar = 4;
  const bars = Math.ceil(SECONDS / (beat * beatsPerBar)) + 1;
  for (let bar = 0; bar < bars; bar++) {
    const t0 = bar * beat * beatsPerBar;
    const [step, major] = progression[bar % progression.length]!;
    const root = semitone(tonic, step);
    const chord = triad(root * 2, major);
    const bassHz = root / 2;
    const at = (beats: number) => t0 + beats * beat + jitter();
    switch (labels.style) {
      case 'rock':
      case 'double-time-fills': {
        const fill = labels.style === 'double-time-fills' && bar % 2 === 1;
        for (let b = 0; b < 4; b++) {
          if (b % 2 === 0) mix.kick(at(b), vary(1));
          if (b % 2 === 1 && !(fill && b === 3)) mix.snare(at(b), vary(0.9));
          mix.hat(at(b), vary(0.8));
          mix.hat(at(b + 0.5), vary(0.5));
          mix.bass(at(b), bassHz, beat * 0.9, vary(0.9));
        }
        mix.kick(at(2.5), vary(0.7));
        // The fill: sixteenth-note snares over the bar's last beat and a half, twice the pulse's rate and more.
        if (fill) for (let s = 10; s < 16; s++) mix.snare(at(s / 4), vary(0.5 + s * 0.03));
        mix.piano(at(0), chord, beat * 4, vary(0.8));
        break;
      }
      case 'half-time': {
        // Snare on 3 only: the drums say half the tempo; the bass and guitar stabs drive every beat.
        mix.kick(at(0), vary(1));
        mix.kick(at(1.5), vary(0.8));
        mix.snare(at(2), vary(1));
        for (let b = 0; b < 4; b++) {
          mix.hat(at(b), vary(0.7));
          mix.hat(at(b + 0.5), vary(0.45));
          mix.bass(at(b), bassHz, beat * 0.45, vary(1));
          mix.bass(at(b + 0.5), bassHz, beat * 0.45, vary(0.8));
          mix.pluck(at(b), chord[0]! * 2, vary(0.7), beat * 0.9);
          mix.pluck(at(b) + 0.01, chord[2]! * 2, vary(0.6), beat * 0.9);
        }
        break;
      }
      case 'ballad-16ths': {
        // Sixteenth hats (four a beat) over a slow backbeat, sustained pads, a bass note a bar.
        mix.kick(at(0), vary(0.8));
        mix.kick(at(2), vary(0.7));
        mix.snare(at(1), vary(0.6));
        mix.snare(at(3), vary(0.6));
        for (let s = 0; s < 16; s++) mix.hat(at(s / 4), vary(s % 4 === 0 ? 0.6 : s % 2 === 0 ? 0.45 : 0.35));
        mix.pad(t0, chord, beat * 4, 1);
        mix.bass(at(0), bassHz, beat * 3.8, vary(0.8));
        mix.piano(at(0), [chord[2]! * 2], beat * 2, vary(0.5));
        mix.piano(at(2), [chord[1]! * 2], beat * 2, vary(0.45));
        break;
      }
      case 'swing': {
        // Ride "ding, ding-a ding, ding-a", hi-hat foot on 2 and 4, walking bass on every beat, comping on swung off-beats.
        for (let b = 0; b < 4; b++) {
          mix.hat(at(b), vary(0.6), true);
          if (b % 2 === 1) {
            mix.hat(at(b + 2 / 3), vary(0.4), true);
            mix.hat(at(b), vary(0.5));
          }
          mix.bass(at(b), semitone(bassHz, [0, 4, 7, 9][b]!), beat * 0.95, vary(0.9));
        }
        mix.piano(at(bar % 2 === 0 ? 1 + 2 / 3 : 0), chord, beat * 0.8, vary(0.6));
        mix.piano(at(3 + 2 / 3), chord, beat * 0.6, vary(0.5));
        if (bar % 4 === 3) mix.snare(at(3 + 2 / 3), vary(0.4));
        break;
      }
      case 'piano-chords': {
        // No drums: a block chord on every beat (accented on 1), the bass on 1 and 3.
        for (let b = 0; b < 4; b++) mix.piano(at(b), chord, beat * 0.95, vary(b === 0 ? 1 : 0.7));
        mix.bass(at(0), bassHz, beat * 1.9, vary(0.8));
        mix.bass(at(2), bassHz, beat * 1.9, vary(0.7));
        break;
      }
      case 'plucked-arpeggio': {
        // No drums: eighth-note arpeggio on a plucked string, each beat's first note accented, a bass note a bar.
        const notes = [chord[0]!, chord[1]!, chord[2]!, chord[0]! * 2, chord[2]!, chord[1]!, chord[0]!, chord[1]!];
        for (let e = 0; e < 8; e++) mix.pluck(at(e / 2), notes[e]! * 2, vary(e % 2 === 0 ? 1 : 0.55));
        mix.bass(at(0), bassHz, beat * 3.9, vary(0.6));
        break;
      }
      case 'pad-and-pluck': {
        // A pad changing chord every two beats; a soft pluck on each beat carries the pulse.
        mix.pad(t0, chord, beat * 2, 1);
        mix.pad(t0 + beat * 2, triad(semitone(root, 5) * 2, true), beat * 2, 1);
        for (let b = 0; b < 4; b++) mix.pluck(at(b), chord[b % 3]! * 4, vary(0.6));
        break;
      }
      case 'syncopated-bass': {
        // Kick on 1 and the "and" of 2, snare on 2 and 4, sixteenth hats, a bass off the beat.
        mix.kick(at(0), vary(1));
        mix.kick(at(1.5), vary(0.8));
        mix.snare(at(1), vary(0.9));
        mix.snare(at(3), vary(0.9));
        for (let s = 0; s < 16; s++) mix.hat(at(s / 4), vary(s % 2 === 0 ? 0.5 : 0.3));
        for (const s of [0, 3, 6, 7, 10, 12, 14]) mix.bass(at(s / 4), s % 4 === 3 ? bassHz * 2 : bassHz, beat * 0.22, vary(1));
        mix.pad(t0, chord, beat * 4, 0.7);
        break;
      }
      case 'four-on-the-floor': {
        for (let b = 0; b < 4; b++) {
          mix.kick(at(b), vary(1));
          mix.hat(at(b + 0.5), vary(0.6), true);
          mix.bass(at(b + 0.5), bassHz, beat * 0.4, vary(0.9));
        }
        mix.snare(at(1), vary(0.6));
        mix.snare(at(3), vary(0.6));
        mix.pad(t0, chord, beat * 4, 0.8);
        break;
      }
      case 'shuffle-12-8': {
        // A slow 12/8 blues: the tapped beat is the dotted quarter; hats on every triplet eighth.
        for (let b = 0; b < 4; b++) {
          for (let k = 0; k < 3; k++) mix.hat(at(b + k / 3), vary(k === 0 ? 0.6 : 0.4));
          mix.pluck(at(b), bassHz * 2, vary(0.8));
          mix.pluck(at(b + 2 / 3), bassHz * 3, vary(0.5));
        }
        mix.kick(at(0), vary(0.9));
        mix.kick(at(2), vary(0.8));
        mix.snare(at(1), vary(0.8));
        mix.snare(at(3), vary(0.8));
        mix.pad(t0, chord, beat * 4, 0.6);
        break;
      }
    }
  }
  // Loud songs are mastered hot (a soft clip); quiet ones sit 24 dB down.
  const out = mix.out;
  let peak = 0;
  for (const value of out) peak = Math.max(peak, Math.abs(value));
  const drive = labels.loud ? 2.2 / peak : 0.1 / peak;
  for (let i = 0; i < out.length; i++) out[i] = labels.loud ? Math.tanh(out[i]! * drive) * 0.95 : out[i]! * drive;
  return out;
}
