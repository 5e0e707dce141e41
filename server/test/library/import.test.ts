import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsPort } from '../../src/features/auth/auth.port.js';
import { LYRICS_WITHOUT_SONG, type ImportProgress, type ImportReport } from '../../src/features/library/import/folder-import.js';
import { BROKEN_LINK, LINK_LOOP } from '../../src/features/library/import/folder-walk.js';
import { formatDuration, formatProgressLine, formatSummary, ProgressPrinter } from '../../src/features/library/import/import-progress.js';
import { NO_ACCOUNT, parseImportArgs, runImportCommand } from '../../src/features/library/import/import.command.js';
import { libraryModule } from '../../src/features/library/library.module.js';
import { songs as songsTable } from '../../src/features/library/library.schema.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { account, bearer, localSetups, mediaFiles, setups, songRows, startLibraryApp, type LibraryApp } from './library-test-kit.js';

const ONLY_AUDIO = 'Only audio files can be uploaded: MP3, WAV, OGG, M4A or FLAC.';
const UNREADABLE = 'This audio file could not be read. It may be damaged.';
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/**
 * A music folder as people have them: songs of every accepted format at several depths, the
 * same song twice, a text file, a text file named like a song, a damaged MP3, a film, a hidden file, a link to
 * nothing and a link back to the top (a loop).
 */
async function musicFolder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-import-'));
  const put = async (from: string, to: string) => {
    await fs.mkdir(path.dirname(path.join(dir, to)), { recursive: true });
    await fs.copyFile(from, path.join(dir, to));
  };
  await put(fixtures.taggedMp3, 'Artist/Album/03 Tagged.mp3');
  await put(fixtures.flac, 'Artist/Album/04 Flac.flac');
  await put(fixtures.m4a, 'Artist/Other/m4a.m4a');
  await put(fixtures.opus, 'opus.opus');
  await put(fixtures.vorbis, 'Loose/vorbis.ogg');
  await put(fixtures.wav, 'Loose/Deeper/Still/wav.wav');
  await put(fixtures.truncatedMp3, 'Loose/truncated.mp3');
  await put(fixtures.flac, 'Copies/same flac.flac');
  await put(fixtures.textAsMp3, 'Loose/not really.mp3');
  await put(fixtures.brokenHeaderMp3, 'Loose/damaged.mp3');
  await put(fixtures.videoMp4, 'Films/film.mp4');
  await put(fixtures.taggedMp3, 'Artist/.hidden.mp3');
  await fs.writeFile(path.join(dir, 'notes.txt'), 'ripped with care\n');
  await fs.symlink('../..', path.join(dir, 'Loose/Deeper/back to the top'));
  await fs.symlink('gone.mp3', path.join(dir, 'Loose/broken link.mp3'));
  // Beside the songs, as the music folders have them (issue 39): a cover, lyrics of one song, and lyrics of no song.
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 200, b: 0 } } })
    .jpeg()
    .toBuffer();
  await fs.writeFile(path.join(dir, 'Loose/Folder.jpg'), jpeg);
  await fs.writeFile(path.join(dir, 'Loose/vorbis.lrc'), '[00:00.50]First sung line\n[00:01.20]Second sung line\n');
  await fs.writeFile(path.join(dir, 'Loose/nobody sings this.lrc'), '[00:00.50]Alone\n');
  return dir;
}

/** Every file's path and sha256, to prove the import only reads. */
async function checksums(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = await fs.lstat(full);
    found[path.relative(dir, full)] = stats.isSymbolicLink()
      ? `link:${await fs.readlink(full)}`
      : stats.isFile()
        ? createHash('sha256')
            .update(await fs.readFile(full))
            .digest('hex')
        : `dir:${stats.mode}`;
  }
  return found;
}

interface Captured {
  code: number;
  out: string;
  err: string;
}

async function runImport(t: TestApp, args: string[]): Promise<Captured> {
  let out = '';
  let err = '';
  const code = await runImportCommand(args, {
    folderImport: t.app.encore.modules.internals(libraryModule).folderImport,
    accounts: t.app.encore.modules.port(accountsPort),
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { code, out, err };
}

interface ImportedSong {
  id: number;
  fileName: string;
  title: string | null;
  artist: string | null;
  hasCover: boolean;
  uploadedBy: string;
}

async function listSongs(t: TestApp, token: string): Promise<ImportedSong[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/files?limit=100', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ImportedSong[]>();
}

describe.each(setups)('npm run import on $engine with $storage storage', (setup) => {
  let t: LibraryApp;
  let folder: string;
  let before: Record<string, string>;
  beforeAll(async () => {
    t = await startLibraryApp(setup);
    folder = await musicFolder();
    before = await checksums(folder);
  });
  afterAll(async () => {
    await t?.close();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  it('says to create an account first when there is none, and names a missing --user', async () => {
    const none = await runImport(t, [folder]);
    expect(none.code).toBe(1);
    expect(none.err).toContain(NO_ACCOUNT);
    await account(t, 'first-owner');
    const missing = await runImport(t, [folder, '--user', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('There is no account named nobody');
  });

  it('imports every song once with its tags and cover, reports what it refused and why, and leaves the folder as it was', async () => {
    const token = await account(t, 'second-user');
    const run = await runImport(t, [folder]);
    expect(run.code, run.out + run.err).toBe(0);

    const songs = await listSongs(t, token);
    expect(songs.map((song) => song.fileName).sort()).toEqual(
      ['03 Tagged.mp3', '04 Flac.flac', 'm4a.m4a', 'opus.opus', 'vorbis.ogg', 'wav.wav', 'truncated.mp3'].sort(),
    );
    // The oldest account owns them, not the newest.
    expect(new Set(songs.map((song) => song.uploadedBy))).toEqual(new Set(['first-owner']));
    const tagged = songs.find((song) => song.fileName === '03 Tagged.mp3');
    expect(tagged).toMatchObject({ title: TAGGED.title, artist: TAGGED.artist, hasCover: true });
    expect(songs.find((song) => song.fileName === '04 Flac.flac')).toMatchObject({ hasCover: true });
    // The cover beside a song without one of its own is its cover; the .lrc beside it its lyrics.
    const vorbis = songs.find((song) => song.fileName === 'vorbis.ogg');
    expect(vorbis).toMatchObject({ hasCover: true });
    const lyrics = await t.app.inject({ method: 'GET', url: `/api/files/${vorbis?.id}/lyrics`, headers: bearer(token) });
    expect(lyrics.statusCode).toBe(200);
    expect(JSON.stringify(lyrics.json())).toContain('First sung line');

    // The song is whole: its stream serves the file's exact bytes, its lyrics came from its tags.
    const detail = await t.app.inject({ method: 'GET', url: `/api/files/${tagged?.id}`, headers: bearer(token) });
    expect(detail.json<{ transcript?: string | null }>().transcript ?? '').toContain('First line of the song');
    const rows = await t.app.encore.platform.database.db
      .select({ storageKey: songsTable.storageKey, fileName: songsTable.fileName, contentSha256: songsTable.contentSha256 })
      .from(songsTable);
    const taggedRow = rows.find((row) => row.fileName === '03 Tagged.mp3');
    const stored = await t.app.encore.platform.storage.get(taggedRow?.storageKey ?? '');
    const bytes: Buffer[] = [];
    for await (const chunk of stored.stream) bytes.push(chunk as Buffer);
    expect(Buffer.concat(bytes).equals(await fs.readFile(fixtures.taggedMp3))).toBe(true);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.contentSha256 ?? ''))).toBe(true);

    expect(run.out).toContain('Imported 7 songs');
    expect(run.out).toContain('Duplicates 1');
    expect(run.out).toMatch(/ {2}Copies\/same flac\.flac: the same as Artist\/Album\/04 Flac\.flac/);
    expect(run.out).toContain(`  notes.txt: ${ONLY_AUDIO}`);
    expect(run.out).toContain(`  Loose/not really.mp3: ${ONLY_AUDIO}`);
    expect(run.out).toContain(`  Loose/Deeper/back to the top: ${LINK_LOOP}`);
    expect(run.out).toContain(`  Loose/broken link.mp3: ${BROKEN_LINK}`);
    expect(run.out).toContain(`  Loose/damaged.mp3: ${UNREADABLE}`);
    expect(run.out).toContain(`  Films/film.mp4: ${ONLY_AUDIO}`);
    expect(run.out).toContain(`  Loose/nobody sings this.lrc: ${LYRICS_WITHOUT_SONG}`);
    expect(run.out).not.toContain('Folder.jpg');
    expect(run.out).not.toContain('vorbis.lrc');
    expect(run.out).toContain('Refused 7');
    expect(run.out).not.toContain('hidden');
    expect(run.err).toContain('Importing 12 / 12 files');

    expect(await checksums(folder)).toEqual(before);
  });

  it('imports nothing new when run again: every song is skipped by its content', async () => {
    const again = await runImport(t, [folder, '--user', 'second-user']);
    expect(again.code, again.out + again.err).toBe(0);
    expect(again.out).toContain('Imported 0 songs');
    expect(again.out).toContain('Skipped 7 already in the library');
    const rows = await t.app.encore.platform.database.db.select({ id: songsTable.id }).from(songsTable);
    expect(rows).toHaveLength(7);
    expect(await checksums(folder)).toEqual(before);
  });
});

describe.each(localSetups)('an import interrupted and run again ($engine)', (setup) => {
  it('stops after the file in hand on Ctrl-C, and the next run brings each song in exactly once', async () => {
    let t: TestApp = await startTestApp(setup.engine);
    const folder = await musicFolder();
    const pause = path.join(folder, '..', `${path.basename(folder)}.pause`);
    try {
      await account(t, 'owner');
      // PGlite's database belongs to one process: the test hands it to the command.
      if (setup.engine === 'pglite') await t.app.close();
      const env = {
        PATH: process.env['PATH'] ?? '',
        DATA_DIR: t.dataDir,
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
        PUBLIC_URL: 'http://encore.test',
        ANALYSIS_BACKFILL: 'false',
        ANALYSIS_ON_INGEST: 'false',
      };
      await fs.writeFile(pause, '');
      const first = command(folder, { ...env, ENCORE_IMPORT_PAUSE_FILE: pause });
      await untilFile(`${pause}.paused`, first);
      first.child.kill('SIGINT');
      await until(() => first.err().includes('Stopping after the current file'), first);
      await fs.rm(pause);
      const firstCode = await first.exited;
      expect(firstCode, first.err()).toBe(130);
      expect(first.out()).toContain('Interrupted');
      expect(first.out()).toContain('Imported 1 song (');

      const second = command(folder, env);
      expect(await second.exited, second.err()).toBe(0);
      expect(second.out()).toContain('Imported 6 songs');
      expect(second.out()).toContain('Skipped 1 already in the library');

      if (setup.engine === 'pglite') t = await startTestApp('pglite', { DATA_DIR: t.dataDir });
      const rows = await t.app.encore.platform.database.db.select({ fileName: songsTable.fileName }).from(songsTable);
      expect(rows.map((row) => row.fileName).sort()).toEqual(
        ['03 Tagged.mp3', '04 Flac.flac', 'm4a.m4a', 'opus.opus', 'vorbis.ogg', 'wav.wav', 'truncated.mp3'].sort(),
      );
    } finally {
      await t.close();
      await fs.rm(folder, { recursive: true, force: true });
      await fs.rm(pause, { force: true });
      await fs.rm(`${pause}.paused`, { force: true });
    }
  }, 120_000);
});

interface CommandProcess {
  child: ReturnType<typeof spawn>;
  exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** `main.ts import <folder>` as a person runs it, in its own process. */
function command(folder: string, env: Record<string, string>): CommandProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(SERVER_DIR, 'src/main.ts'), 'import', folder], {
    cwd: SERVER_DIR,
    env: { ...(process.env['FFMPEG_PATH'] ? { FFMPEG_PATH: process.env['FFMPEG_PATH'] } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

/** Resolves when `file` exists, told by the folder's change events; rejects if the command ends first. */
function untilFile(file: string, process: CommandProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(path.dirname(file), () => check());
    const stop = () => {
      watcher.close();
      process.child.off('exit', exited);
    };
    function check() {
      if (!existsSync(file)) return;
      stop();
      resolve();
    }
    function exited(code: number | null) {
      stop();
      if (existsSync(file)) resolve();
      else reject(new Error(`the import exited early (${code}): ${process.out()}${process.err()}`));
    }
    process.child.once('exit', exited);
    check();
  });
}

/** Resolves when `done()` holds, checked at each output of the command (its own listeners ran first). */
function until(done: () => boolean, process: CommandProcess): Promise<void> {
  const { child } = process;
  return new Promise((resolve, reject) => {
    const stop = () => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', exited);
    };
    function check() {
      if (!done()) return;
      stop();
      resolve();
    }
    function exited(code: number | null) {
      stop();
      if (done()) resolve();
      else reject(new Error(`the import exited early (${code}): ${process.out()}${process.err()}`));
    }
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

describe.each(localSetups)('two imports of one folder at once ($engine)', (setup) => {
  it('bring each song in once, and keep no copy of the loser', async () => {
    const t = await startLibraryApp(setup);
    const folder = await musicFolder();
    try {
      await account(t, 'racer');
      const runs = await Promise.all([runImport(t, [folder]), runImport(t, [folder])]);
      for (const run of runs) expect(run.code, run.out + run.err).toBe(0);
      const rows = await songRows(t);
      expect(rows).toHaveLength(7);
      const kept = new Set(rows.flatMap((row) => [row.storageKey, row.coverKey, row.coverThumbKey]).filter((key): key is string => key !== null));
      const media = (file: string) => file.startsWith('songs/') || file.startsWith('covers/');
      const stored = (await mediaFiles(t)).filter(media);
      // Every stored file is a song's (thumbnails are made on first request): the loser's copies went.
      expect(stored.filter((file) => !kept.has(file))).toEqual([]);
      expect(stored.filter((file) => file.startsWith('songs/'))).toHaveLength(7);
    } finally {
      await t.close();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the import command line and its terminal output', () => {
  const progress = (done: number, total: number, bytesDone: number, bytesTotal: number, refused = 0): ImportProgress => ({
    filesDone: done,
    filesTotal: total,
    bytesDone,
    bytesTotal,
    refused,
  });

  it('reads the folder and --user', () => {
    expect(parseImportArgs(['/music'])).toEqual({ folder: '/music' });
    expect(parseImportArgs(['/music', '--user', 'ann'])).toEqual({ folder: '/music', userName: 'ann' });
    expect(parseImportArgs(['--user=ann', '/music'])).toEqual({ folder: '/music', userName: 'ann' });
    expect(() => parseImportArgs([])).toThrow(/Usage/);
    expect(() => parseImportArgs(['/a', '/b'])).toThrow(/One folder/);
    expect(() => parseImportArgs(['/a', '--user'])).toThrow(/--user needs/);
  });

  it('formats the progress line with thousands, the rate, the refused and the ETA', () => {
    expect(formatProgressLine(progress(1234, 5000, 482_000_000, 6_000_000_000, 3), 10)).toBe(
      'Importing 1,234 / 5,000 files · 48.2 MB/s · 3 refused · ETA 2 min',
    );
    expect(formatProgressLine(progress(0, 10, 0, 100), 0)).toBe('Importing 0 / 10 files · 0 MB/s');
    expect(formatProgressLine(progress(10, 10, 100, 100), 1)).toBe('Importing 10 / 10 files · 0.0 MB/s');
    expect(formatDuration(30)).toBe('30 s');
    expect(formatDuration(150)).toBe('3 min');
    expect(formatDuration(3900)).toBe('1 h 5 min');
  });

  it('redraws in place at most five times a second on a terminal, and prints plain lines elsewhere', () => {
    let clock = 0;
    let tty = '';
    const terminal = new ProgressPrinter({ isTTY: true, write: (text: string) => (tty += text) }, 0, 10, () => clock);
    for (clock = 0; clock < 1000; clock += 10) terminal.update(progress(clock / 10, 100, clock, 1000));
    terminal.finish();
    const draws = tty.split('\r').filter(Boolean);
    expect(draws.length).toBeGreaterThanOrEqual(5);
    expect(draws.length).toBeLessThanOrEqual(6);
    expect(draws.every((draw) => draw.startsWith('Importing') && draw.includes('\x1b[K'))).toBe(true);
    expect(tty.endsWith('\n')).toBe(true);

    let log = '';
    const plain = new ProgressPrinter({ isTTY: false, write: (text: string) => (log += text) }, 0, 10, () => clock);
    for (clock = 0; clock < 25_000; clock += 100) plain.update(progress(clock / 100, 250, clock, 25_000));
    plain.finish();
    expect(log).not.toContain('\r');
    expect(log.trim().split('\n')).toHaveLength(4);
  });

  it('sums up what was imported, skipped, doubled and refused, with reasons', () => {
    const report: ImportReport = {
      imported: [{ path: 'a.mp3', songId: 1 }],
      importedBytes: 5_000_000,
      skipped: [{ path: 'b.mp3', songId: 2 }],
      duplicates: [{ path: 'c.mp3', of: 'a.mp3' }],
      refused: [{ path: 'notes.txt', reason: ONLY_AUDIO }],
      failed: [],
      interrupted: false,
    };
    expect(formatSummary(report, 2)).toBe(
      [
        'Imported 1 song (5.0 MB) in 2 s · 2.5 MB/s',
        'Skipped 1 already in the library',
        'Duplicates 1 (the same bytes as another file here, imported once)',
        '  c.mp3: the same as a.mp3',
        'Refused 1',
        `  notes.txt: ${ONLY_AUDIO}`,
      ].join('\n'),
    );
  });
});
