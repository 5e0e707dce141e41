import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../platform/crypto/sha256.js';
import { makeOwnedTempDir } from '../../platform/fs/owned-temp-dir.js';
import type { Logger } from '../../platform/logger.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { songInputArgs } from '../../platform/media/ffmpeg.input.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import { KeyedLock } from './ingest/keyed-lock.js';
import type { SongRow } from './library.repository.js';

/** Containers every browser Encore supports decodes (Chrome, Firefox, Safari). */
const BROWSER_TYPES = new Set(['audio/mpeg', 'audio/flac', 'audio/ogg', 'audio/wav', 'audio/aac', 'audio/webm', 'audio/mp4']);
/** Codecs inside those containers that some of them do not (Apple Lossless in an M4A, Speex in an Ogg). */
const NOT_IN_BROWSERS = /alac|apple lossless|speex/i;

export const TRANSCODE_PREFIX = 'transcodes/';
export const TRANSCODE_TYPE = 'audio/mp4';

/** Whether browsers play the song's file as it is; otherwise the player gets a transcode. */
export function playsInBrowsers(row: Pick<SongRow, 'fileType' | 'codec'>): boolean {
  return BROWSER_TYPES.has(row.fileType) && !(row.codec !== null && NOT_IN_BROWSERS.test(row.codec));
}

/** Where a song's transcode is kept: named after the file it was made from, so a changed file gets a new one. */
export function transcodeKey(row: Pick<SongRow, 'id' | 'storageKey' | 'size'>): string {
  return `${TRANSCODE_PREFIX}${row.id}-${sha256(`${row.storageKey}:${row.size}`, 'hex').slice(0, 16)}.m4a`;
}

export interface TranscodesDeps {
  storage: Storage;
  ffmpeg: Ffmpeg;
  logger: Logger;
}

/**
 * AAC copies of songs browsers cannot play as they are (WMA, APE, WavPack, Musepack, DSD, AIFF,
 * ALAC…), made by ffmpeg at the first play and kept in storage beside the songs, so every later
 * play (and every seek: it is an ordinary object, Range and all) costs nothing. The original
 * stays what downloads give. A song deleted or a file changed leaves its copy to the orphan sweep.
 */
export class Transcodes {
  private readonly lock = new KeyedLock();

  constructor(private readonly deps: TranscodesDeps) {}

  /** The storage key of the song's browser copy, made now if it does not exist yet. */
  async ensure(row: Pick<SongRow, 'id' | 'storageKey' | 'size' | 'sampleRate'>): Promise<string> {
    const key = transcodeKey(row);
    if (await this.deps.storage.stat(key)) return key;
    return this.lock.run(key, async () => {
      if (await this.deps.storage.stat(key)) return key;
      const started = Date.now();
      const dir = await makeOwnedTempDir('transcode');
      try {
        const out = path.join(dir, 'song.m4a');
        // AAC takes at most 96 kHz; DSD decodes to 352.8 kHz and hi-res files gain nothing above 48.
        const rate = row.sampleRate !== null && row.sampleRate <= 48_000 ? [] : ['-ar', '48000'];
        await this.deps.storage.withLocalFile(row.storageKey, (file) =>
          this.deps.ffmpeg.run(
            [
              ...songInputArgs({ file }),
              '-map',
              '0:a:0',
              '-vn',
              '-ac',
              '2',
              ...rate,
              '-c:a',
              'aac',
              '-b:a',
              '192k',
              '-movflags',
              '+faststart',
              '-f',
              'mp4',
              `file:${out}`,
            ],
            { timeoutMs: 15 * 60_000 },
          ),
        );
        await this.deps.storage.put(key, createReadStream(out), { contentType: TRANSCODE_TYPE });
        this.deps.logger.info({ songId: row.id, ms: Date.now() - started }, 'made a browser copy of a song');
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
      return key;
    });
  }
}
