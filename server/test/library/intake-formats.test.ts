import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SongListEntry } from '@encore/common/library.contract';
import type { LyricsModel } from '@encore/common/lyrics.contract';
import type { MusicFoldersResponse } from '@encore/common/music-folders.contract';
import { accountsPort } from '../../src/features/auth/auth.port.js';
import { runImportCommand } from '../../src/features/library/import/import.command.js';
import { libraryModule } from '../../src/features/library/library.module.js';
import { NOT_AUDIO } from '../../src/features/music-folders/folder-scanner.js';
import { musicFoldersModule } from '../../src/features/music-folders/music-folders.module.js';
import { buildFormatFiles, CHINESE_LINES, type FormatFiles } from '../support/format-files.js';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from './library-test-kit.js';

/**
 * Issue 37 (8, 10-13): the files of other projects through every way in — an upload, `import`
 * and a music folder — as a user would notice them: which become songs, with what length,
 * cover and lyrics, and what is refused or reported and why.
 */
const ONLY_AUDIO = { message: 'Only audio files can be uploaded: MP3, WAV, OGG, M4A or FLAC.' };

let files: FormatFiles;
beforeAll(async () => {
  files = await buildFormatFiles();
});
afterAll(async () => files?.cleanup());

async function songs(t: LibraryApp, token: string): Promise<SongListEntry[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/files?limit=200', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<SongListEntry[]>();
}

async function lyricsOf(t: LibraryApp, token: string, songId: number): Promise<LyricsModel> {
  const response = await t.app.inject({ method: 'GET', url: `/api/files/${songId}/lyrics`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<LyricsModel>();
}

/** ODD_LRC as Encore must read it: impossible and missing times stay untimed, the closing tag ends the last line, words stay apart. */
function expectOddLyricsRead(lyrics: LyricsModel, durationSeconds: number): void {
  expect(lyrics.text).toBe('First line\nImpossible time\nNo time at all\nLet it be ADLIB');
  const [first, impossible, untimed, last] = lyrics.lines;
  expect(first).toMatchObject({ startTime: 0.2 });
  // Untimed lines sit, lasting nothing, where the line before them ends: no invented time.
  for (const line of [impossible!, untimed!]) expect(line.endTime).toBe(line.startTime);
  expect(last).toMatchObject({ startTime: 0.9, endTime: 1.6 });
  for (const line of lyrics.lines) expect(line.startTime).toBeLessThanOrEqual(durationSeconds);
}

describe.each(localSetups)('files of other projects on $engine', (setup) => {
  let t: LibraryApp;
  let token: string;
  let folder: string;
  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-intake-'));
    const put = async (from: string, to: string) => fs.copyFile(from, path.join(folder, to));
    await put(files.oggFlac, 'ogg flac.ogg');
    await put(files.oggSpeex, 'speex.ogg');
    await put(files.webmWithoutDuration, 'piped.webm');
    await put(files.wmaWithCoverAndLyrics, 'covered.wma');
    await put(files.mp1, 'layer.mp1');
    await put(files.bwf, 'broadcast.bwf');
    await put(files.noExtension, 'no extension');
    await put(files.byExtension['mp3']!, 'utf16 song.mp3');
    await put(files.utf16Lrc, 'utf16 song.lrc');
    await put(files.byExtension['flac']!, 'gbk song.flac');
    await put(files.gbkLrc, 'gbk song.lrc');
    await fs.writeFile(path.join(folder, 'README'), 'Ripped in 2004.\n');
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    token = await account(t, 'owner');
    await t.app.encore.modules.internals(musicFoldersModule).service.idle();
  });
  afterAll(async () => {
    await t?.close();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  it('an upload refuses a UTF-16 text, and takes Ogg FLAC and Speex with their length', async () => {
    const text = await upload(t, token, files.utf16Lrc, { fileName: 'lyrics.mp3' });
    expect(text.complete.statusCode).toBe(415);
    expect(text.complete.json()).toEqual(ONLY_AUDIO);
    for (const file of [files.oggFlac, files.oggSpeex]) {
      const taken = await upload(t, token, file, { contentType: 'audio/ogg' });
      expect(taken.complete.statusCode, `${file}: ${taken.complete.body}`).toBe(201);
      expect(taken.song.durationSeconds).toBeCloseTo(2, 0);
    }
  });

  it('an upload reads LRC lyrics in a tag as Encore reads LRC', async () => {
    const taken = await upload(t, token, files.oggWithLyrics, { contentType: 'audio/ogg' });
    expect(taken.complete.statusCode).toBe(201);
    const lyrics = await lyricsOf(t, token, taken.song.id);
    expect(lyrics.source).toBe('embedded');
    expectOddLyricsRead(lyrics, 2);
  });

  it('`import` refuses a UTF-16 lyrics file and imports Ogg FLAC and Speex', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-intake-import-'));
    try {
      await fs.copyFile(files.utf16Lrc, path.join(dir, 'song.lrc'));
      // The same UTF-16 text under an audio name: its FF FE is not an MPEG frame.
      await fs.copyFile(files.utf16Lrc, path.join(dir, 'text.mp3'));
      await fs.copyFile(files.oggFlac, path.join(dir, 'flac inside.ogg'));
      await fs.copyFile(files.oggSpeex, path.join(dir, 'speex inside.ogg'));
      let out = '';
      const code = await runImportCommand([dir], {
        folderImport: t.app.encore.modules.internals(libraryModule).folderImport,
        accounts: t.app.encore.modules.port(accountsPort),
        stdout: { write: (text: string) => (out += text) },
        stderr: { write: () => undefined },
      });
      expect(code, out).toBe(0);
      // An .lrc is lyrics for the song of its name beside it (none here), never a song itself.
      expect(out).toContain('  song.lrc: Lyrics (.lrc) with no song of the same name beside them.');
      expect(out).toContain(`  text.mp3: ${ONLY_AUDIO.message}`);
      expect(out).toContain('Imported 2 songs');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('a music folder takes Ogg FLAC, Speex, WebM without a duration, WMA with its cover and lyrics, and audio by content', async () => {
    // The folder's songs belong to no one (the uploads above are the owner's).
    const list = (await songs(t, token)).filter((song) => song.uploadedBy === '');
    const byName = (name: string) => list.find((song) => song.fileName === name);
    for (const name of ['ogg flac.ogg', 'speex.ogg', 'piped.webm', 'covered.wma', 'layer.mp1', 'broadcast.bwf', 'no extension']) {
      expect(byName(name), name).toBeDefined();
      expect(byName(name)!.durationSeconds, name).toBeCloseTo(2, 0);
    }
    const overview = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(token) })).json<MusicFoldersResponse>();
    const reasons = Object.fromEntries(overview.problems.map((problem) => [problem.path, problem.reason]));
    expect(reasons).toEqual({ README: NOT_AUDIO });

    const wma = byName('covered.wma')!;
    expect(wma).toMatchObject({ title: 'Covered WMA', hasCover: true });
    const wmaLyrics = await lyricsOf(t, token, wma.id);
    expect(wmaLyrics.source).toBe('embedded');
    expectOddLyricsRead(wmaLyrics, 2);
  });

  it('a music folder reads an .lrc beside a song in UTF-16 or GBK, naming that file as the source', async () => {
    const list = (await songs(t, token)).filter((song) => song.uploadedBy === '');
    for (const name of ['utf16 song.mp3', 'gbk song.flac']) {
      const song = list.find((entry) => entry.fileName === name)!;
      const lyrics = await lyricsOf(t, token, song.id);
      expect(lyrics.source, name).toBe('sidecar');
      expect(lyrics.text, name).toBe(CHINESE_LINES.join('\n'));
      expect(
        lyrics.lines.map((line) => line.startTime),
        name,
      ).toEqual([0.4, 1.2]);
    }
  });
});
