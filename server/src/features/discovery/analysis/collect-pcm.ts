import type { Readable } from 'node:stream';

/**
 * Reads f32le PCM from a stream into one Float32Array of at most `maxSamples` samples (then
 * stops the stream: the rest of a very long song is not needed). Memory is bounded by
 * maxSamples × 4 bytes whatever the file.
 */
export async function collectPcm(stream: Readable, maxSamples: number): Promise<{ samples: Float32Array; truncated: boolean }> {
  let buffer = new Float32Array(Math.min(maxSamples, 22_050 * 60));
  let length = 0;
  let carry = Buffer.alloc(0);
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 4);
    carry = Buffer.from(bytes.subarray(whole));
    const count = Math.min(whole / 4, maxSamples - length);
    if (length + count > buffer.length) {
      const grown = new Float32Array(Math.min(maxSamples, Math.max(buffer.length * 2, length + count)));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    for (let i = 0; i < count; i++) buffer[length + i] = bytes.readFloatLE(i * 4);
    length += count;
    if (length >= maxSamples) {
      truncated = true;
      stream.destroy();
      break;
    }
  }
  return { samples: buffer.subarray(0, length), truncated };
}
