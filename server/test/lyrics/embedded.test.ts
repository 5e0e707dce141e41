import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LyricsModel } from '@encore/common/lyrics.contract';
import { lyrics, lyricsEmbeddedScans } from '../../src/features/lyrics/lyrics.schema.js';
import { account, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { apeV2 } from '../library/real-world-audio.js';
import { id3v23 } from '../support/audio-fixtures.js';
import { getLyrics, putLyrics, tempDir } from './lyrics-test-kit.js';
import { lyricsModule } from '../../src/features/lyrics/lyrics.module.js';

const run = promisify(execFile);
const ffmpeg = (args: string[]) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function frame(id: string, content: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  header.writeUInt32BE(content.length, 4);
  return Buffer.concat([header, content]);
}
const uslt = (text: string) => frame('USLT', Buffer.concat([Buffer.from([0]), Buffer.from('eng', 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]));
/** ID3 SYLT: latin1, English, times in milliseconds (format 2), content type lyrics. */
const sylt = (lines: [string, number][]) =>
  frame(
    'SYLT',
    Buffer.concat([
      Buffer.from([0]),
      Buffer.from('eng', 'latin1'),
      Buffer.from([2, 1, 0]),
      ...lines.map(([text, ms]) => {
        const time = Buffer.alloc(4);
        time.writeUInt32BE(ms);
        return Buffer.concat([Buffer.from(`${text}\0`, 'latin1'), time]);
      }),
    ]),
  );

async function lyricsOnceRead(t: LibraryApp, token: string, songId: number): Promise<LyricsModel> {
  for (let i = 0; i < 150; i += 1) {
    const model = await getLyrics(t, token, songId);
    if (model.hasLyrics) return model;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`song ${songId} got no lyrics`);
}

describe.each(localSetups)('embedded lyrics ($engine)', (setup) => {
  let t: LibraryApp;
  let token: string;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    temp = await tempDir();
    const at = (name: string) => path.join(temp.dir, name);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=duration=6',
      '-map_metadata',
      '-1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '64k',
      '-id3v2_version',
      '0',
      '-write_id3v1',
      '0',
      at('bare.mp3'),
    ]);
    const bare = await readFile(at('bare.mp3'));
    await writeFile(at('uslt.mp3'), Buffer.concat([id3v23([uslt('[Verse]\nPlain embedded line\nAnother line')]), bare]));
    await writeFile(
      at('sylt.mp3'),
      Buffer.concat([
        id3v23([
          sylt([
            ['Synced one', 1000],
            ['Synced two', 3500],
          ]),
        ]),
        bare,
      ]),
    );
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=duration=6',
      '-c:a',
      'flac',
      '-metadata',
      'LYRICS=[00:01.00]Flac line one\n[00:02.50]Flac line two',
      at('lrc.flac'),
    ]);
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=6', '-c:a', 'aac', '-b:a', '64k', '-metadata', 'lyrics=M4A lyric line', at('lyr.m4a')]);
    await writeFile(at('ape.mp3'), Buffer.concat([bare, apeV2({ Title: 'Ape Song', Lyrics: 'Ape line one\nApe line two' })]));
    Object.assign(files, { ape: at('ape.mp3'), uslt: at('uslt.mp3'), sylt: at('sylt.mp3'), flac: at('lrc.flac'), m4a: at('lyr.m4a'), bare: at('bare.mp3') });
    t = await startLibraryApp(setup, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    token = await account(t, 'embeddedowner');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await temp?.cleanup();
  });

  it('reads ID3 USLT (plain, headers kept) and SYLT (synced, line times) at upload', async () => {
    const plain = await lyricsOnceRead(t, token, (await upload(t, token, files['uslt']!)).song.id);
    // Kept from the tags the upload read (USLT's language: English), not read from the file again.
    expect(plain).toMatchObject({ text: '[Verse]\nPlain embedded line\nAnother line', source: 'embedded', timing: 'none', language: 'en' });
    expect(plain.lines[0]!.isHeader).toBe(true);
    const synced = await lyricsOnceRead(t, token, (await upload(t, token, files['sylt']!)).song.id);
    expect(synced).toMatchObject({ text: 'Synced one\nSynced two', timing: 'line' });
    expect(synced.lines.map((line) => line.startTime)).toEqual([1, 3.5]);
  });

  it('reads LRC text in a Vorbis LYRICS comment and MP4 ©lyr', async () => {
    const flac = await lyricsOnceRead(t, token, (await upload(t, token, files['flac']!, { contentType: 'audio/flac' })).song.id);
    expect(flac).toMatchObject({ text: 'Flac line one\nFlac line two', timing: 'line' });
    expect(flac.lines[1]!.startTime).toBe(2.5);
    const m4a = await lyricsOnceRead(t, token, (await upload(t, token, files['m4a']!, { contentType: 'audio/mp4' })).song.id);
    expect(m4a.text).toBe('M4A lyric line');
  });

  it('backfills songs never read, and never replaces lyrics someone stored', async () => {
    const song = (await upload(t, token, files['uslt']!, { fileName: 'again.mp3' })).song;
    await lyricsOnceRead(t, token, song.id);
    const db = t.app.encore.platform.database.db;
    // As a library from before lyrics were read from files: no lyrics, never scanned.
    await db.delete(lyrics);
    await db.delete(lyricsEmbeddedScans);
    expect((await getLyrics(t, token, song.id)).hasLyrics).toBe(false);
    const done = await t.app.encore.modules.internals(lyricsModule).embeddedLyrics.backfill();
    expect(done.scanned).toBeGreaterThanOrEqual(4);
    expect((await getLyrics(t, token, song.id)).text).toBe('[Verse]\nPlain embedded line\nAnother line');
    expect((await t.app.encore.modules.internals(lyricsModule).embeddedLyrics.backfill()).scanned).toBe(0);
    await putLyrics(t, token, song.id, { transcript: 'Mine now' });
    await t.app.encore.modules.internals(lyricsModule).embeddedLyrics.scan(song.id);
    expect((await getLyrics(t, token, song.id)).text).toBe('Mine now');
  });

  it('reads lyrics in an APEv2 tag at the end of the file, at upload and in the backfill', async () => {
    const song = (await upload(t, token, files['ape']!, { fileName: 'ape.mp3' })).song;
    expect((await lyricsOnceRead(t, token, song.id)).text).toBe('Ape line one\nApe line two');
    const db = t.app.encore.platform.database.db;
    await db.delete(lyrics).where(eq(lyrics.songId, song.id));
    await db.delete(lyricsEmbeddedScans).where(eq(lyricsEmbeddedScans.songId, song.id));
    expect(await t.app.encore.modules.internals(lyricsModule).embeddedLyrics.scan(song.id)).toEqual({ found: 'plain' });
    expect((await getLyrics(t, token, song.id)).text).toBe('Ape line one\nApe line two');
  });

  it('gives a file without lyrics none', async () => {
    const song = (await upload(t, token, files['bare']!, { fileName: 'bare-song.mp3' })).song;
    expect(await t.app.encore.modules.internals(lyricsModule).embeddedLyrics.scan(song.id)).toEqual({ found: 'none' });
    expect((await getLyrics(t, token, song.id)).hasLyrics).toBe(false);
  });
});
