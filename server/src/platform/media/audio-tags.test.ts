import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AudioTagsTimeoutError, readAudioTags, UnreadableAudioError } from './audio-tags.js';

describe('readAudioTags', () => {
  it('gives up on a stream that stalls, within the time allowed, and destroys it', async () => {
    const stalled = new PassThrough();
    // An ID3 header announcing 1 MB of tag, then nothing more, ever.
    stalled.write(Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x00, 0x40, 0x00, 0x00]));
    const started = Date.now();
    await expect(readAudioTags(stalled, { mimeType: 'audio/mpeg', size: 2_000_000 }, 300)).rejects.toBeInstanceOf(AudioTagsTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stalled.destroyed).toBe(true);
  });

  it('reports a file the parser cannot read as UnreadableAudioError', async () => {
    const garbage = Readable.from([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f]), Buffer.alloc(100)]);
    await expect(readAudioTags(garbage, { mimeType: 'audio/mpeg', size: 110 }, 5000)).rejects.toBeInstanceOf(UnreadableAudioError);
  });
});
