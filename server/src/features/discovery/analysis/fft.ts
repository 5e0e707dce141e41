/**
 * The FFT of the analysis (spectral features, the tempo's octave, the vocal detector): an
 * in-place radix-2 complex transform whose bit-reversal and twiddle tables are computed once
 * per size, so a song's thousands of frames only do the butterflies.
 */
export type Fft = (re: Float64Array, im: Float64Array) => void;

const plans = new Map<number, Fft>();

/** The transform of size `n` (a power of two), in place on `re` and `im`. */
export function fftOf(n: number): Fft {
  const cached = plans.get(n);
  if (cached) return cached;
  if (n < 2 || (n & (n - 1)) !== 0) throw new Error(`FFT size ${n} is not a power of two`);
  const reversed = new Uint32Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    reversed[i] = j;
  }
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let i = 0; i < n / 2; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / n);
    sin[i] = -Math.sin((2 * Math.PI * i) / n);
  }
  const transform: Fft = (re, im) => {
    for (let i = 1; i < n; i++) {
      const j = reversed[i]!;
      if (i < j) {
        // Plain swaps: a destructuring swap allocates an array per element.
        const r = re[i]!;
        re[i] = re[j]!;
        re[j] = r;
        const m = im[i]!;
        im[i] = im[j]!;
        im[j] = m;
      }
    }
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const step = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const wr = cos[k * step]!;
          const wi = sin[k * step]!;
          const a = start + k;
          const b = a + half;
          const br = re[b]! * wr - im[b]! * wi;
          const bi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - br;
          im[b] = im[a]! - bi;
          re[a] = re[a]! + br;
          im[a] = im[a]! + bi;
        }
      }
    }
  };
  plans.set(n, transform);
  return transform;
}
