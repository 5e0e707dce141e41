/**
 * EBU R128 / ITU-R BS.1770 loudness of PCM at any rate, one or two channels: K-weighting (the
 * two biquads, their coefficients derived for the sample rate), 400 ms blocks with 75 %
 * overlap whose power is the sum of the channels' mean squares (left and right weigh 1), the
 * absolute (-70 LUFS) and relative (-10 LU) gates; the loudness range from 3 s short-term
 * blocks (gates -70 LUFS and -20 LU, 10th to 95th percentile). The meter is fed as the audio
 * is decoded and keeps only one number per 100 ms, so a song of any length costs no memory.
 */

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

function kWeighting(sampleRate: number): [Biquad, Biquad] {
  let k = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  const q1 = 0.7071752369554196;
  const vh = Math.pow(10, 3.999843853973347 / 20);
  const vb = Math.pow(vh, 0.4996667741545416);
  let a0 = 1 + k / q1 + k * k;
  const shelf = {
    b0: (vh + (vb * k) / q1 + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q1 + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q1 + k * k) / a0,
  };
  k = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  const q2 = 0.5003270373238773;
  a0 = 1 + k / q2 + k * k;
  const highPass = { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q2 + k * k) / a0 };
  return [shelf, highPass];
}

const toLufs = (power: number) => -0.691 + 10 * Math.log10(power);
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export interface Loudness {
  integratedLufs: number;
  rangeLu: number;
}

/** The two cascaded K-weighting filters of one channel, with their state. */
class KWeightedChannel {
  private readonly shelf: Biquad;
  private readonly highPass: Biquad;
  // Direct form I state: x[n-1], x[n-2], y[n-1], y[n-2] of each stage.
  private s = [0, 0, 0, 0];
  private h = [0, 0, 0, 0];

  constructor(sampleRate: number) {
    [this.shelf, this.highPass] = kWeighting(sampleRate);
  }

  /** The next sample through both filters. */
  next(x: number): number {
    const { shelf: f, highPass: g, s, h } = this;
    const y = f.b0 * x + f.b1 * s[0]! + f.b2 * s[1]! - f.a1 * s[2]! - f.a2 * s[3]!;
    s[1] = s[0]!;
    s[0] = x;
    s[3] = s[2]!;
    s[2] = y;
    const z = g.b0 * y + g.b1 * h[0]! + g.b2 * h[1]! - g.a1 * h[2]! - g.a2 * h[3]!;
    h[1] = h[0]!;
    h[0] = y;
    h[3] = h[2]!;
    h[2] = z;
    return z;
  }
}

/**
 * Streaming BS.1770 meter: `push` interleaved samples as they come (any chunking), then
 * `result`. Gating blocks are built from 100 ms steps: a 400 ms block is four of them, a 3 s
 * short-term block thirty.
 */
export class LoudnessMeter {
  private readonly filters: KWeightedChannel[];
  private readonly step: number;
  /** Sum over channels of the K-weighted squares of each whole 100 ms step. */
  private readonly steps: number[] = [];
  private energy = 0;
  private inStep = 0;
  private channel = 0;
  private frames = 0;

  constructor(
    private readonly sampleRate: number,
    private readonly channels: 1 | 2,
  ) {
    this.filters = Array.from({ length: channels }, () => new KWeightedChannel(sampleRate));
    this.step = Math.round(sampleRate / 10);
  }

  push(interleaved: Float32Array): void {
    const { filters, channels } = this;
    for (let i = 0; i < interleaved.length; i++) {
      const y = filters[this.channel]!.next(interleaved[i]!);
      this.energy += y * y;
      if (++this.channel < channels) continue;
      this.channel = 0;
      this.frames++;
      if (++this.inStep === this.step) {
        this.steps.push(this.energy);
        this.energy = 0;
        this.inStep = 0;
      }
    }
  }

  /** Seconds of audio pushed so far. */
  get seconds(): number {
    return this.frames / this.sampleRate;
  }

  result(): Loudness {
    const momentary = this.blockPowers(4, 1).filter((power) => power > 0 && toLufs(power) > -70);
    if (momentary.length === 0) return { integratedLufs: -70, rangeLu: 0 };
    const ungated = mean(momentary);
    const integrated = toLufs(mean(momentary.filter((power) => toLufs(power) > toLufs(ungated) - 10)));

    const shortTerm = this.blockPowers(30, 10).filter((power) => power > 0 && toLufs(power) > -70);
    let rangeLu = 0;
    if (shortTerm.length > 1) {
      const gate = toLufs(mean(shortTerm)) - 20;
      const gated = shortTerm
        .map(toLufs)
        .filter((lufs) => lufs > gate)
        .sort((a, b) => a - b);
      const at = (p: number) => gated[Math.min(gated.length - 1, Math.max(0, Math.round(p * (gated.length - 1))))]!;
      rangeLu = at(0.95) - at(0.1);
    }
    return { integratedLufs: integrated, rangeLu };
  }

  /** Mean power of blocks `length` steps long, one every `every` steps. */
  private blockPowers(length: number, every: number): number[] {
    const powers: number[] = [];
    for (let start = 0; start + length <= this.steps.length; start += every) {
      let sum = 0;
      for (let i = start; i < start + length; i++) sum += this.steps[i]!;
      powers.push(sum / (length * this.step));
    }
    return powers;
  }
}

/** The loudness of a whole mono signal (the analysis's own 22.05 kHz mix). */
export function measureLoudness(signal: Float32Array, sampleRate: number): Loudness {
  const meter = new LoudnessMeter(sampleRate, 1);
  meter.push(signal);
  return meter.result();
}
