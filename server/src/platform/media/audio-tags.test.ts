import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AudioTagsTimeoutError, readAudioTags, UnreadableAudioError } from './audio-tags.js';

describe('readAudioTags', () => {
  afterEach(() => vi.useRealTimers());

  it('gives up on a stream that stalls when its time is up, not before, and destroys it', async () => {
    // The clock is the test's: the time limit is proven by when the promise settles, not by a stopwatch.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stalled = new PassThrough();
    // An ID3 header announcing 1 MB of tag, then nothing more, ever.
    stalled.write(Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x00, 0x40, 0x00, 0x00]));
    let settled = false;
    const reading = readAudioTags(stalled, { mimeType: 'audio/mpeg', size: 2_000_000 }, 300).finally(() => (settled = true));
    reading.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(reading).rejects.toBeInstanceOf(AudioTagsTimeoutError);
    expect(stalled.destroyed).toBe(true);
  });

  it('reports a file the parser cannot read as UnreadableAudioError', async () => {
    const garbage = Readable.from([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f]), Buffer.alloc(100)]);
    await expect(readAudioTags(garbage, { mimeType: 'audio/mpeg', size: 110 }, 5000)).rejects.toBeInstanceOf(UnreadableAudioError);
  });
});
