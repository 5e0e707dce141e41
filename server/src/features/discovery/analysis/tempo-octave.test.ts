import { describe, expect, it } from 'vitest';
import { analyseSignal } from './analyse-signal.js';
import { chooseOctave, onsetEnvelopes } from './tempo-octave.js';

const RATE = 22_050;
const SECONDS = 16;

/** A tiny drum kit and band, sample by sample, with a fixed seed: enough to make a beat tracker err by an octave. */
function band(bpm: number, bar: (hit: Hits, beat: number) => void): Float32Array {
  const out = new Float32Array(SECONDS * RATE);
  let seed = 12_345;
  const noise = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 30 - 1;
  const add = (time: number, seconds: number, voice: (t: number) => number) => {
    const start = Math.round(time * RATE);
    for (let i = start; i < Math.min(out.length, start + seconds * RATE); i++) out[i]! += voice((i - start) / RATE);
  };
  const hit: Hits = {
    kick: (time) => add(time, 0.3, (t) => 0.9 * Math.sin(2 * Math.PI * (50 * t + 2.5 * (1 - Math.exp(-t * 35)))) * Math.exp(-t * 9)),
    snare: (time) => add(time, 0.2, (t) => (0.4 * noise() + 0.3 * Math.sin(2 * Math.PI * 185 * t)) * Math.exp(-t * 20)),
    hat: (time, velocity) => add(time, 0.05, (t) => velocity * 0.2 * noise() * Math.exp(-t * 70)),
    bass: (time, seconds) => add(time, seconds, (t) => 0.35 * Math.sin(2 * Math.PI * 55 * t) * Math.min(1, t * 400, (seconds - t) * 50)),
    chord: (time, seconds) =>
      add(
        time,
        seconds,
        (t) => 0.05 * [220, 277.18, 329.63].reduce((sum, hz) => sum + Math.sin(2 * Math.PI * hz * t), 0) * Math.min(1, t / 0.3, (seconds - t) / 0.3),
      ),
  };
  const beat = 60 / bpm;
  for (let bar4 = 0; bar4 * 4 * beat < SECONDS; bar4++) bar(hit, bar4 * 4 * beat);
  return out;
}

interface Hits {
  kick(time: number): void;
  snare(time: number): void;
  hat(time: number, velocity: number): void;
  bass(time: number, seconds: number): void;
  chord(time: number, seconds: number): void;
}

describe('the tempo a listener taps', () => {
  it('reads a 70 BPM ballad with sixteenth-note hi-hats as slow, not at 140', () => {
    const beat = 60 / 70;
    const ballad = band(70, (hit, t0) => {
      hit.kick(t0);
      hit.kick(t0 + 2 * beat);
      hit.snare(t0 + beat);
      hit.snare(t0 + 3 * beat);
      for (let s = 0; s < 16; s++) hit.hat(t0 + (s * beat) / 4, s % 4 === 0 ? 0.6 : 0.35);
      hit.bass(t0, 3.8 * beat);
      hit.chord(t0, 4 * beat);
    });
    const { features } = analyseSignal(ballad);
    expect(Math.abs(features.bpm - 70), `read ${features.bpm} BPM`).toBeLessThan(70 * 0.04);
    // Had the tracker read the hats' pulse (140), the octave would still come down to 70.
    const context = { onsetRate: features.onsetRate, energy: features.energy };
    expect(chooseOctave(140, onsetEnvelopes(ballad, RATE), context).bpm).toBe(70);
  });

  it('reads a 150 BPM half-time rock beat (snare on 3) as fast, not at 75', () => {
    const beat = 60 / 150;
    const rock = band(150, (hit, t0) => {
      hit.kick(t0);
      hit.kick(t0 + 1.5 * beat);
      hit.snare(t0 + 2 * beat);
      for (let b = 0; b < 4; b++) {
        hit.hat(t0 + b * beat, 0.7);
        hit.hat(t0 + (b + 0.5) * beat, 0.45);
        // The bass drives eighth notes: the band plays at 150 while the drums lay back.
        hit.bass(t0 + b * beat, 0.45 * beat);
        hit.bass(t0 + (b + 0.5) * beat, 0.45 * beat);
      }
      hit.chord(t0, 4 * beat);
    });
    const { features } = analyseSignal(rock);
    expect(Math.abs(features.bpm - 150), `read ${features.bpm} BPM`).toBeLessThan(150 * 0.04);
    // Had the tracker followed the snare (75), the octave would still go up to 150.
    const context = { onsetRate: features.onsetRate, energy: features.energy };
    expect(chooseOctave(75, onsetEnvelopes(rock, RATE), context).bpm).toBe(150);
  });
});
