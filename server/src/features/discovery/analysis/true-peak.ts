/**
 * Sample peak and a true-peak estimate (ITU-R BS.1770 annex 2: the peak of the signal
 * oversampled four times, which catches the peaks between samples that a DAC will make) of
 * interleaved PCM, fed as it is decoded. The interpolator is a 4-phase windowed-sinc FIR of
 * 4 × TAPS taps. Between two samples both more than 6 dB below the peak found so far no
 * interpolated value of a real recording reaches that peak (inter-sample overs are a few dB at
 * most), so those are not computed: on music that skips almost all of the work.
 */

/** Taps per phase. */
const TAPS = 16;
const PHASES = 4;
/** Interpolate only around samples within this factor (6 dB) of the peak so far. */
const SKIP_BELOW = 0.5;

/** The four phases of the interpolating low-pass (cutoff at the input's Nyquist), each normalised to unity gain. */
function interpolator(): Float64Array[] {
  const length = TAPS * PHASES;
  const centre = (length - 1) / 2;
  const taps = Array.from({ length }, (_, n) => {
    const t = (n - centre) / PHASES;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    // Blackman-Harris window: the side lobes stay below -90 dB.
    const w = (2 * Math.PI * n) / (length - 1);
    const window = 0.35875 - 0.48829 * Math.cos(w) + 0.14128 * Math.cos(2 * w) - 0.01168 * Math.cos(3 * w);
    return sinc * window;
  });
  return Array.from({ length: PHASES }, (_, phase) => {
    const coefficients = Float64Array.from({ length: TAPS }, (_, k) => taps[k * PHASES + phase]!);
    const sum = coefficients.reduce((total, c) => total + c, 0);
    return coefficients.map((c) => c / sum);
  });
}

const PHASE_COEFFICIENTS = interpolator();

/** The four phases' taps in one array, phase after phase: the inner loop reads it straight through. */
const COEFFICIENTS = Float64Array.from(PHASE_COEFFICIENTS.flatMap((phase) => [...phase]));

export class PeakMeter {
  /** Each channel's last TAPS samples, twice over (at i and i + TAPS) so a window is one contiguous run. */
  private readonly histories: Float64Array[];
  private at = 0;
  private channel = 0;
  private sample = 0;
  private truePeakSoFar = 0;

  constructor(private readonly channels: 1 | 2) {
    this.histories = Array.from({ length: channels }, () => new Float64Array(TAPS * 2));
  }

  push(interleaved: Float32Array): void {
    const { channels, histories } = this;
    const c = COEFFICIENTS;
    let { at, channel, sample, truePeakSoFar } = this;
    for (let i = 0; i < interleaved.length; i++) {
      const x = interleaved[i]!;
      const history = histories[channel]!;
      history[at] = x;
      history[at + TAPS] = x;
      const newest = at + TAPS; // history[newest - k] is the sample k steps ago
      if (++channel === channels) {
        channel = 0;
        at = at + 1 === TAPS ? 0 : at + 1;
      }
      const magnitude = x < 0 ? -x : x;
      if (magnitude > sample) sample = magnitude;
      // The interpolated values land around the middle of the window.
      const a = history[newest - TAPS / 2 + 1]!;
      const b = history[newest - TAPS / 2]!;
      const middle = Math.max(a < 0 ? -a : a, b < 0 ? -b : b);
      if (middle < truePeakSoFar * SKIP_BELOW) continue;
      for (let phase = 0; phase < PHASES; phase++) {
        const base = phase * TAPS;
        let sum = 0;
        for (let k = 0; k < TAPS; k++) sum += c[base + k]! * history[newest - k]!;
        const value = sum < 0 ? -sum : sum;
        if (value > truePeakSoFar) truePeakSoFar = value;
      }
    }
    Object.assign(this, { at, channel, sample, truePeakSoFar });
  }

  /** Linear, 1 = full scale: the largest sample and the estimated true peak (never below it). */
  result(): { samplePeak: number; truePeak: number } {
    return { samplePeak: this.sample, truePeak: Math.max(this.sample, this.truePeakSoFar) };
  }
}
