import type { Readable } from 'node:stream';
import { OnsetDetector } from '@encore/common/clip-timeline';

/**
 * Beats for beatDetection: common's onset pass (the preview runs the same one in the browser)
 * over ffmpeg's mono 16-bit PCM. Streams: a long song never sits in memory.
 */
export async function detectOnsets(pcm: Readable, sampleRate: number): Promise<number[]> {
  const detector = new OnsetDetector(sampleRate);
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of pcm as AsyncIterable<Buffer>) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = data.length - (data.length % 2);
    const samples = new Float32Array(whole / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2) / 32768;
    detector.push(samples);
    carry = Buffer.from(data.subarray(whole));
  }
  return detector.onsets;
}
