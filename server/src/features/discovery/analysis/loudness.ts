/**
 * EBU R128 / ITU-R BS.1770 loudness of mono PCM at any rate: K-weighting (the two biquads,
 * their coefficients derived for the sample rate), 400 ms blocks with 75 % overlap, the
 * absolute (-70 LUFS) and relative (-10 LU) gates; the loudness range from 3 s short-term
 * blocks (gates -70 LUFS and -20 LU, 10th to 95th percentile). Computed on the analysis's
 * own decoded signal, so loudness costs no second decode.
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

function filter(input: Float32Array, stage: Biquad): Float32Array {
  const out = new Float32Array(input.length);
  let x1 = 0,
    x2 = 0,
    y1 = 0,
    y2 = 0;
  for (let i = 0; i < input.length; i++) {
    const x = input[i]!;
    const y = stage.b0 * x + stage.b1 * x1 + stage.b2 * x2 - stage.a1 * y1 - stage.a2 * y2;
    out[i] = y;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
  }
  return out;
}

const toLufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

function blockPowers(weighted: Float32Array, sampleRate: number, blockSeconds: number, stepSeconds: number): number[] {
  const block = Math.round(blockSeconds * sampleRate);
  const step = Math.round(stepSeconds * sampleRate);
  // Prefix sums of squares make every block O(1).
  const prefix = new Float64Array(weighted.length + 1);
  for (let i = 0; i < weighted.length; i++) prefix[i + 1] = prefix[i]! + weighted[i]! * weighted[i]!;
  const powers: number[] = [];
  for (let start = 0; start + block <= weighted.length; start += step) powers.push((prefix[start + block]! - prefix[start]!) / block);
  return powers;
}

export interface Loudness {
  integratedLufs: number;
  rangeLu: number;
}

export function measureLoudness(signal: Float32Array, sampleRate: number): Loudness {
  const [shelf, highPass] = kWeighting(sampleRate);
  const weighted = filter(filter(signal, shelf), highPass);
  const momentary = blockPowers(weighted, sampleRate, 0.4, 0.1).filter((power) => power > 0 && toLufs(power) > -70);
  if (momentary.length === 0) return { integratedLufs: -70, rangeLu: 0 };
  const ungated = momentary.reduce((sum, power) => sum + power, 0) / momentary.length;
  const relative = momentary.filter((power) => toLufs(power) > toLufs(ungated) - 10);
  const integrated = toLufs(relative.reduce((sum, power) => sum + power, 0) / relative.length);

  const shortTerm = blockPowers(weighted, sampleRate, 3, 1).filter((power) => power > 0 && toLufs(power) > -70);
  let rangeLu = 0;
  if (shortTerm.length > 1) {
    const mean = shortTerm.reduce((sum, power) => sum + power, 0) / shortTerm.length;
    const gated = shortTerm
      .filter((power) => toLufs(power) > toLufs(mean) - 20)
      .map(toLufs)
      .sort((a, b) => a - b);
    const at = (p: number) => gated[Math.min(gated.length - 1, Math.max(0, Math.round(p * (gated.length - 1))))]!;
    rangeLu = at(0.95) - at(0.1);
  }
  return { integratedLufs: integrated, rangeLu };
}
