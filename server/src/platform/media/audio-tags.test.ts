import { afterEach, describe, expect, it, vi } from 'vitest';
import { AudioTagsTimeoutError, readAudioTags, UnreadableAudioError } from './audio-tags.js';
import { bufferSource, type ClosableSource } from './byte-source.js';

describe('readAudioTags', () => {
  afterEach(() => vi.useRealTimers());

  it('gives up on a file that stalls when its time is up, not before, and closes it', async () => {
    // The clock is the test's: the time limit is proven by when the promise settles, not by a stopwatch.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A storage whose reads never answer.
    let closed = false;
    const stalled: ClosableSource = { size: 2_000_000, read: () => new Promise<Buffer>(() => undefined), close: () => (closed = true) };
    let settled = false;
    const reading = readAudioTags(stalled, { mimeType: 'audio/mpeg' }, 300).finally(() => (settled = true));
    reading.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(reading).rejects.toBeInstanceOf(AudioTagsTimeoutError);
    expect(closed).toBe(true);
  });

  it('reports a file the parser cannot read as UnreadableAudioError', async () => {
    const garbage = bufferSource(Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f]), Buffer.alloc(100)]));
    await expect(readAudioTags(garbage, { mimeType: 'audio/mpeg' }, 5000)).rejects.toBeInstanceOf(UnreadableAudioError);
  });
});
