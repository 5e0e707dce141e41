import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_TYPES } from '../../src/features/music-folders/folder-files.js';
import { decodeToPcm } from '../../src/platform/media/ffmpeg.decode.js';
import { SONG_DEMUXERS } from '../../src/platform/media/ffmpeg.input.js';
import { locateFfmpeg, type LocatedFfmpeg } from '../../src/platform/media/ffmpeg.locate.js';
import { buildFormatFiles, UNWRITTEN_DEMUXERS, type FormatFiles } from '../support/format-files.js';

/**
 * Issue 37 (9): what a music folder takes, the analysis and the transcription decode (both read
 * a song through `decodeToPcm`, under the song demuxer whitelist).
 */
let files: FormatFiles;
let ffmpeg: LocatedFfmpeg;
beforeAll(async () => {
  files = await buildFormatFiles();
  ffmpeg = await locateFfmpeg({ dataDir: files.dir, choices: ['system'] });
});
afterAll(async () => files?.cleanup());

async function samples(stream: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes / 2;
}

describe('songs of every format a music folder takes', () => {
  it('decode to PCM, for the analysis and the transcription', async () => {
    const all = {
      ...files.byExtension,
      oggFlac: files.oggFlac,
      oggSpeex: files.oggSpeex,
      piped: files.webmWithoutDuration,
      covered: files.wmaWithCoverAndLyrics,
    };
    const decoded = await Promise.all(
      Object.entries(all).map(async ([name, file]) => {
        const count = await samples(decodeToPcm(ffmpeg.path, file, { sampleRate: 16_000 })).catch((error: unknown) => String(error));
        return [name, count] as const;
      }),
    );
    // Two seconds each (DSD blocks round up; AAC and Opus add a priming frame).
    for (const [name, count] of decoded) expect(count, name).toBeGreaterThan(1.9 * 16_000);
  });

  it('are each made above, or read by a demuxer on the whitelist', () => {
    for (const ext of Object.keys(AUDIO_TYPES)) {
      if (files.byExtension[ext]) continue;
      expect(UNWRITTEN_DEMUXERS[ext], `no test file and no demuxer named for .${ext}`).toBeDefined();
      expect(SONG_DEMUXERS as readonly string[], ext).toContain(UNWRITTEN_DEMUXERS[ext]);
    }
  });
});
