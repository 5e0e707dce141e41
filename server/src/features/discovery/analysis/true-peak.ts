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

/** One channel's recent samples, twice over so a window is always one contiguous run. */
class History {
  private readonly buffer = new Float64Array(TAPS * 2);
  private at = 0;

  push(x: number): void {
    this.buffer[this.at] = x;
    this.buffer[this.at + TAPS] = x;
    this.at = (this.at + 1) % TAPS;
  }

  /** The sample `back` steps ago (0 = the newest). */
  get(back: number): number {
    return this.buffer[this.at + TAPS - 1 - back]!;
  }

  /** Σ c[k]·x[n−k] over the window. */
  convolve(coefficients: Float64Array): number {
    let sum = 0;
    const newest = this.at + TAPS - 1;
    for (let k = 0; k < TAPS; k++) sum += coefficients[k]! * this.buffer[newest - k]!;
    return sum;
  }
}

export class PeakMeter {
  private readonly histories: History[];
  private channel = 0;
  private sample = 0;
  private truePeakSoFar = 0;

  constructor(private readonly channels: 1 | 2) {
    this.histories = Array.from({ length: channels }, () => new History());
  }

  push(interleaved: Float32Array): void {
    for (let i = 0; i < interleaved.length; i++) {
      const x = interleaved[i]!;
      const history = this.histories[this.channel]!;
      if (++this.channel === this.channels) this.channel = 0;
      history.push(x);
      const magnitude = Math.abs(x);
      if (magnitude > this.sample) this.sample = magnitude;
      // The interpolated values land around the middle of the window.
      const middle = Math.max(Math.abs(history.get(TAPS / 2 - 1)), Math.abs(history.get(TAPS / 2)));
      if (middle < this.truePeakSoFar * SKIP_BELOW) continue;
      for (const coefficients of PHASE_COEFFICIENTS) {
        const value = Math.abs(history.convolve(coefficients));
        if (value > this.truePeakSoFar) this.truePeakSoFar = value;
      }
    }
  }

  /** Linear, 1 = full scale: the largest sample and the estimated true peak (never below it). */
  result(): { samplePeak: number; truePeak: number } {
    return { samplePeak: this.sample, truePeak: Math.max(this.sample, this.truePeakSoFar) };
  }
}
