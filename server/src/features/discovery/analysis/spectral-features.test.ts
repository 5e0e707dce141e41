import { describe, expect, it } from 'vitest';
import { spectralFeatures } from './spectral-features.js';

const RATE = 22_050;

/** Eight seconds of a kick on every beat at 120 BPM and a chord; hi-hats on the off-beats when `hats`. */
function groove(options: { hats: boolean; kick: number; voiceHz?: number }): Float32Array {
  const signal = new Float32Array(RATE * 8);
  let noise = 12_345;
  for (let i = 0; i < signal.length; i++) {
    const t = i / RATE;
    const beat = t % 0.5;
    let value = options.kick * Math.sin(2 * Math.PI * 55 * t) * Math.exp(-25 * beat);
    for (const hz of [220, 277.18, 329.63]) value += 0.1 * Math.sin(2 * Math.PI * hz * t);
    if (options.voiceHz) for (let h = 1; h < 12; h++) value += (0.08 / h) * Math.sin(2 * Math.PI * options.voiceHz * h * t);
    if (options.hats) {
      noise = (noise * 1_103_515_245 + 12_345) % 2 ** 31;
      value += 0.2 * (noise / 2 ** 30 - 1) * Math.exp(-60 * ((t + 0.25) % 0.5));
    }
    signal[i] = value;
  }
  return signal;
}

describe('spectral features', () => {
  it('reads hi-hats as bright even under a heavy kick, and a dull mix as dull', () => {
    const dull = spectralFeatures(groove({ hats: false, kick: 0.2 }), RATE);
    const bright = spectralFeatures(groove({ hats: true, kick: 0.9 }), RATE);
    expect(bright.trebleShare).toBeGreaterThan(dull.trebleShare * 5);
    // The plain centroid follows the kick's power: it would call the bright groove the duller.
    expect(bright.trebleShare).toBeGreaterThan(0.04);
    expect(bright.centroidHz).toBeLessThan(dull.centroidHz);
    expect(dull.trebleShare).toBeLessThan(0.02);
  });

  it('does not call a voice-like harmonic tone over a dull mix bright', () => {
    const voiced = spectralFeatures(groove({ hats: false, kick: 0.2, voiceHz: 180 }), RATE);
    const bright = spectralFeatures(groove({ hats: true, kick: 0.2, voiceHz: 180 }), RATE);
    expect(bright.trebleShare).toBeGreaterThan(voiced.trebleShare * 1.5);
  });
});
