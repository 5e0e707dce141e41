import type { Readable } from 'node:stream';

/**
 * Beats for beatDetection when the song has no analysis: an onset pass over mono 16-bit PCM
 * (energy rises above the recent average), peaks at least MIN_GAP_SECONDS apart. Streams: a
 * long song never sits in memory.
 */
const FRAME = 512;
const HISTORY = 43; // about 1.4 s of frames at 16 kHz
const SENSITIVITY = 1.5;
const MIN_GAP_SECONDS = 0.25;

export async function detectOnsets(pcm: Readable, sampleRate: number): Promise<number[]> {
  const onsets: number[] = [];
  const history: number[] = [];
  let carry = Buffer.alloc(0);
  let frameIndex = 0;
  let previousEnergy = 0;
  let last = -Infinity;
  for await (const chunk of pcm as AsyncIterable<Buffer>) {
    let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const frameBytes = FRAME * 2;
    let offset = 0;
    for (; offset + frameBytes <= data.length; offset += frameBytes) {
      let energy = 0;
      for (let i = offset; i < offset + frameBytes; i += 2) {
        const sample = data.readInt16LE(i) / 32768;
        energy += sample * sample;
      }
      energy /= FRAME;
      const rise = Math.max(0, energy - previousEnergy);
      previousEnergy = energy;
      const mean = history.length > 0 ? history.reduce((a, b) => a + b, 0) / history.length : 0;
      const time = (frameIndex * FRAME) / sampleRate;
      if (history.length >= 8 && rise > mean * SENSITIVITY && rise > 1e-5 && time - last >= MIN_GAP_SECONDS) {
        onsets.push(time);
        last = time;
      }
      history.push(rise);
      if (history.length > HISTORY) history.shift();
      frameIndex++;
    }
    data = data.subarray(offset);
    carry = Buffer.from(data);
  }
  return onsets;
}
