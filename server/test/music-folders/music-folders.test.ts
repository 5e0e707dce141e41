import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SongListEntry } from '@encore/common/library.contract';
import type { MusicFoldersResponse } from '@encore/common/music-folders.contract';
import { ONLY_OWNER_SCANS } from '@encore/common/music-folders.contract';
import { musicFoldersModule } from '../../src/features/music-folders/music-folders.module.js';
import { FOLDER_EMPTY, NOT_AUDIO, UNREADABLE } from '../../src/features/music-folders/folder-scanner.js';
import { entriesNotFound } from '../../src/features/music-folders/folder-playlists.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { account, bearer, fetchUrl, setups, startLibraryApp, type LibraryApp } from '../library/library-test-kit.js';
import { engines, startTestApp } from '../support/test-app.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

let fixtures: AudioFixtures;
let extra: { wma: string; wavpack: string; aiff: string; alac: string; dir: string };
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-formats-'));
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '1', '-ar', '22050'];
  const make = async (name: string, codec: string[], title: string) => {
    const out = path.join(dir, name);
    await run(FFMPEG, ['-v', 'error', ...tone, ...codec, '-metadata', `title=${title}`, '-metadata', 'artist=Format Band', '-y', out]);
    return out;
  };
  extra = {
    dir,
    wma: await make('t.wma', ['-c:a', 'wmav2'], 'Windows Media'),
    wavpack: await make('t.wv', ['-c:a', 'wavpack'], 'Wave Pack'),
    aiff: await make('t.aiff', ['-c:a', 'pcm_s16be'], 'Apple Interchange'),
    alac: await make('t.m4a', ['-c:a', 'alac'], 'Apple Lossless'),
  };
});
afterAll(async () => {
  await fixtures?.cleanup();
  if (extra) await fs.rm(extra.dir, { recursive: true, force: true });
});

/** A music folder as people have them: every format, covers beside and inside, a lyrics file, damaged files, a loop. */
async function musicFolder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-music-'));
  const put = async (from: string, to: string) => {
    await fs.mkdir(path.dirname(path.join(dir, to)), { recursive: true });
    await fs.copyFile(from, path.join(dir, to));
  };
  await put(fixtures.taggedMp3, 'Artist/Album/03 Tagged.mp3');
  await put(fixtures.flac, 'Artist/Album/04 Flac.flac');
  await put(fixtures.m4a, 'Artist/Other/m4a.m4a');
  await put(fixtures.opus, 'opus.opus');
  await put(fixtures.vorbis, 'Loose/vorbis.ogg');
  await put(fixtures.wav, 'Loose/Deeper/wav.wav');
  await put(fixtures.plainMp3, 'Plain/plain song.mp3');
  await put(extra.wma, 'Formats/wma.wma');
  await put(extra.wavpack, 'Formats/wavpack.wv');
  await put(extra.aiff, 'Formats/aiff.aiff');
  await put(extra.alac, 'Formats/alac.m4a');
  await put(fixtures.textAsMp3, 'Loose/not really.mp3');
  await put(fixtures.videoMp4, 'Films/film.m4a');
  await fs.writeFile(path.join(dir, 'Loose/empty.flac'), '');
  await fs.writeFile(path.join(dir, 'notes.txt'), 'ripped with care\n');
  // A cover beside songs without an embedded one, and lyrics beside a song.
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 200, b: 0 } } })
    .jpeg()
    .toBuffer();
  await fs.writeFile(path.join(dir, 'Plain/folder.jpg'), jpeg);
  await fs.writeFile(path.join(dir, 'Plain/plain song.lrc'), '[00:00.50]First sung line\n[00:01.20]Second sung line\n');
  await fs.symlink('..', path.join(dir, 'Loose/Deeper/back up'));
  return dir;
}

async function checksums(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile())
      found[path.relative(dir, full)] = createHash('sha256')
        .update(await fs.readFile(full))
        .digest('hex');
    else if (entry.isSymbolicLink()) found[path.relative(dir, full)] = `-> ${await fs.readlink(full)}`;
  }
  return found;
}

async function allSongs(t: LibraryApp, token: string): Promise<SongListEntry[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/files?limit=200', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<SongListEntry[]>();
}

const service = (t: LibraryApp) => t.app.encore.modules.internals(musicFoldersModule).service;

describe.each(setups)('music folders on $engine with $storage storage', (setup) => {
  let t: LibraryApp | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const folder of folders.splice(0)) await fs.rm(folder, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}): Promise<{ t: LibraryApp; owner: string; folder: string }> {
    const folder = await musicFolder();
    folders.push(folder);
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off', ...env });
    const owner = await account(t, 'owner');
    await service(t).idle();
    return { t, owner, folder };
  }

  it('lists every playable file with its tags, covers and lyrics, plays it with Range, reports the rest, and changes nothing in the folder', async () => {
    const folder = await musicFolder();
    folders.push(folder);
    const before = await checksums(folder);
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    const owner = await account(t, 'owner');
    await service(t).idle();
    const songs = await allSongs(t, owner);
    const names = songs.map((song) => song.fileName).sort();
    expect(names).toEqual(
      [
        '03 Tagged.mp3',
        '04 Flac.flac',
        'aiff.aiff',
        'alac.m4a',
        'm4a.m4a',
        'opus.opus',
        'plain song.mp3',
        'vorbis.ogg',
        'wav.wav',
        'wavpack.wv',
        'wma.wma',
      ].sort(),
    );
    const tagged = songs.find((song) => song.fileName === '03 Tagged.mp3')!;
    expect(tagged).toMatchObject({ title: TAGGED.title, artist: TAGGED.artist, album: TAGGED.album, hasCover: true, uploadedBy: '', isOwner: false });
    expect(songs.find((song) => song.fileName === 'wma.wma')).toMatchObject({ title: 'Windows Media', artist: 'Format Band' });
    expect(songs.find((song) => song.fileName === 'wavpack.wv')).toMatchObject({ title: 'Wave Pack' });
    expect(songs.find((song) => song.fileName === 'alac.m4a')).toMatchObject({ title: 'Apple Lossless' });
    // folder.jpg beside a song without an embedded picture is its cover.
    const plain = songs.find((song) => song.fileName === 'plain song.mp3')!;
    expect(plain.hasCover).toBe(true);
    const cover = await t.app.inject({
      method: 'GET',
      url: `/api/files/extract-image?fileKey=${encodeURIComponent(plain.s3Key)}&size=full`,
      headers: bearer(owner),
    });
    expect(cover.statusCode).toBe(200);
    // The .lrc beside it became its synced lyrics.
    const lyrics = await t.app.inject({ method: 'GET', url: `/api/files/${plain.id}/lyrics`, headers: bearer(owner) });
    expect(lyrics.statusCode).toBe(200);
    expect(JSON.stringify(lyrics.json())).toContain('First sung line');

    // Played from the folder itself, with Range.
    const play = await t.app.inject({ method: 'GET', url: `/api/files/${tagged.id}/play`, headers: bearer(owner) });
    const { url } = play.json<{ url: string }>();
    const part = await fetchUrl(t, url, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.body).toEqual((await fs.readFile(path.join(folder, 'Artist/Album/03 Tagged.mp3'))).subarray(0, 100));
    const download = await t.app.inject({ method: 'GET', url: `/api/files/${tagged.id}/download`, headers: bearer(owner) });
    expect(download.statusCode).toBeLessThan(400);

    // What browsers cannot play as it is (WMA, WavPack, AIFF, ALAC) plays as an AAC copy, made once; the download is the original.
    for (const name of ['wma.wma', 'wavpack.wv', 'aiff.aiff', 'alac.m4a']) {
      const song = songs.find((candidate) => candidate.fileName === name)!;
      const first = (await t.app.inject({ method: 'GET', url: `/api/files/${song.id}/play`, headers: bearer(owner) })).json<{ url: string }>().url;
      const copy = await fetchUrl(t, first, { headers: { range: 'bytes=0-15' } });
      expect(copy.status, name).toBe(206);
      expect(copy.headers['content-type'], name).toBe('audio/mp4');
      expect(copy.body.subarray(4, 8).toString('latin1'), name).toBe('ftyp');
      const again = (await t.app.inject({ method: 'GET', url: `/api/files/${song.id}/play`, headers: bearer(owner) })).json<{ url: string }>().url;
      expect(new URL(again, 'http://x').pathname).toBe(new URL(first, 'http://x').pathname);
    }
    const original = await t.app.inject({
      method: 'GET',
      url: `/api/files/${songs.find((song) => song.fileName === 'wma.wma')!.id}/download`,
      headers: bearer(owner),
    });
    expect(original.statusCode).toBeLessThan(400);

    // A folder song cannot be deleted through Encore.
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/files/${tagged.id}`, headers: bearer(owner) });
    expect(deleted.statusCode).toBe(403);

    const overview = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    expect(overview.folders).toEqual([{ id: 1, path: folder, songs: 11, available: true }]);
    expect(overview.scan).toMatchObject({ state: 'done', trigger: 'start', total: 14, done: 14, added: 11, failed: 3 });
    const reasons = Object.fromEntries(overview.problems.map((problem) => [problem.path, problem.reason]));
    expect(reasons['Loose/not really.mp3']).toBe(NOT_AUDIO);
    expect(reasons['Loose/empty.flac']).toBe(NOT_AUDIO);
    expect(reasons['Films/film.m4a']).toBeDefined();
    expect(Object.keys(reasons).some((file) => file.startsWith('Loose/Deeper/back up'))).toBe(true);
    expect(overview.canScan).toBe(true);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json<{ musicFolders: { state: string } }>().musicFolders.state).toBe('done');

    // A second scan of unchanged files reads nothing and changes nothing.
    await t.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) });
    await service(t).idle();
    const again = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    expect(again.scan).toMatchObject({ state: 'done', trigger: 'manual', added: 0, updated: 0, moved: 0, missing: 0 });
    expect((await allSongs(t, owner)).map((song) => song.id).sort()).toEqual(songs.map((song) => song.id).sort());
    expect(await checksums(folder)).toEqual(before);
    void UNREADABLE;
  });

  it('follows retags, moves, renames and deletions: likes and playlist places stay with the song', async () => {
    const { t, owner, folder } = await start();
    const listener = await account(t, 'listener');
    const songs = await allSongs(t, listener);
    const flac = songs.find((song) => song.fileName === '04 Flac.flac')!;
    expect((await t.app.inject({ method: 'POST', url: `/api/files/${flac.id}/like`, headers: bearer(listener) })).json()).toMatchObject({ isLiked: true });
    const created = await t.app.inject({ method: 'POST', url: '/api/playlists', headers: bearer(listener), payload: { name: 'Keep' } });
    const playlistId = created.json<{ id: number }>().id;
    await t.app.inject({ method: 'POST', url: `/api/playlists/${playlistId}/songs`, headers: bearer(listener), payload: { songId: flac.id } });

    // Moved and renamed: the same song.
    await fs.mkdir(path.join(folder, 'Moved'));
    await fs.rename(path.join(folder, 'Artist/Album/04 Flac.flac'), path.join(folder, 'Moved/renamed.flac'));
    const rescan = async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) });
      expect(response.statusCode).toBe(202);
      await service(t).idle();
    };
    await rescan();
    let now = await allSongs(t, listener);
    const moved = now.find((song) => song.id === flac.id);
    // Renamed on disk: shown and downloaded under its new name (issue 37, item 12).
    expect(moved).toMatchObject({ fileName: 'renamed.flac', isLiked: true });
    const download = await t.app.inject({ method: 'GET', url: `/api/files/${flac.id}/download`, headers: bearer(listener) });
    expect(download.statusCode).toBe(200);
    expect(String(download.headers['content-disposition'])).toContain('renamed.flac');
    const status = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    expect(status.scan).toMatchObject({ moved: 1, added: 0, missing: 0 });

    // Retagged in place: re-read, same id.
    const wav = now.find((song) => song.fileName === 'wav.wav')!;
    const target = path.join(folder, 'Loose/Deeper/wav.wav');
    const retagged = path.join(extra.dir, 'retagged.wav');
    await run(FFMPEG, ['-v', 'error', '-i', target, '-c', 'copy', '-metadata', 'title=A New Title', '-y', retagged]);
    await fs.copyFile(retagged, target);
    await rescan();
    now = await allSongs(t, listener);
    expect(now.find((song) => song.id === wav.id)).toMatchObject({ title: 'A New Title' });

    // Deleted: hidden from lists, playlists and likes; back with them when the file returns.
    const kept = path.join(extra.dir, 'kept.flac');
    await fs.rename(path.join(folder, 'Moved/renamed.flac'), kept);
    await rescan();
    now = await allSongs(t, listener);
    expect(now.some((song) => song.id === flac.id)).toBe(false);
    const favorites = await t.app.inject({ method: 'GET', url: '/api/files?favorites=true', headers: bearer(listener) });
    expect(favorites.json<SongListEntry[]>()).toEqual([]);
    expect(favorites.headers['x-total-count']).toBe('0');
    const playlist = await t.app.inject({ method: 'GET', url: `/api/playlists/${playlistId}`, headers: bearer(listener) });
    expect(playlist.json<{ songs: unknown[] }>().songs).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${flac.id}`, headers: bearer(listener) })).statusCode).toBe(404);

    await fs.copyFile(kept, path.join(folder, 'Back Again.flac'));
    await rescan();
    now = await allSongs(t, listener);
    expect(now.find((song) => song.id === flac.id)).toMatchObject({ isLiked: true });
    const back = await t.app.inject({ method: 'GET', url: `/api/playlists/${playlistId}`, headers: bearer(listener) });
    expect(back.json<{ songs: { id: number }[] }>().songs.map((song) => song.id)).toEqual([flac.id]);
  });

  it('never takes an emptied folder as everything removed, and lets only the owner scan', async () => {
    const { t, owner, folder } = await start();
    const other = await account(t, 'someone');
    const count = (await allSongs(t, owner)).length;
    const refused = await t.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(other) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: ONLY_OWNER_SCANS });

    // The lyrics of a folder song (from its .lrc) are the instance owner's to edit, as an uploader's are.
    const plain = (await allSongs(t, owner)).find((song) => song.fileName === 'plain song.mp3')!;
    const lyricsUrl = `/api/files/${plain.id}/lyrics`;
    expect((await t.app.inject({ method: 'PUT', url: lyricsUrl, headers: bearer(other), payload: { transcript: 'Not mine' } })).statusCode).toBe(404);
    const edited = await t.app.inject({ method: 'PUT', url: lyricsUrl, headers: bearer(owner), payload: { transcript: 'Edited by the owner' } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ text: 'Edited by the owner', canEdit: true });

    // The share went away: its mount point is empty.
    for (const entry of await fs.readdir(folder)) await fs.rm(path.join(folder, entry), { recursive: true, force: true });
    await t.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) });
    await service(t).idle();
    expect((await allSongs(t, owner)).length).toBe(count);
    const overview = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    expect(overview.problems).toContainEqual({ folder, path: '', reason: FOLDER_EMPTY });
    // Where the folders are on the server is for admins (issue 37, item 12): others see names, no report.
    const seen = await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(other) });
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain(folder);
    expect(seen.json<MusicFoldersResponse>()).toMatchObject({
      folders: [{ id: 1, path: path.basename(folder) }],
      problems: [],
      problemCount: 0,
      canScan: false,
    });
  });

  it('keeps an .m3u8 of the folder as a playlist of the first account, matched by path, then by tags; follows its changes; does not remake one deleted', async () => {
    const folder = await musicFolder();
    folders.push(folder);
    await fs.mkdir(path.join(folder, 'Playlists'));
    const m3u = path.join(folder, 'Playlists/Road Trip.m3u8');
    await fs.writeFile(
      m3u,
      [
        '#EXTM3U',
        '#EXTINF:1,whatever',
        '../Artist/Album/04 Flac.flac',
        `${folder}/Loose/vorbis.ogg`,
        '..\\Plain\\plain song.mp3',
        '#EXTINF:-1,Nobody - Nothing',
        '../gone/missing.mp3',
        '',
      ].join('\n'),
    );
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    await service(t).idle();
    const owner = await account(t, 'owner');
    const scan = async () => {
      expect((await t!.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) })).statusCode).toBe(202);
      await service(t!).idle();
    };
    await scan();
    const songs = await allSongs(t, owner);
    const idOf = (name: string) => songs.find((song) => song.fileName === name)!.id;
    const lists = (await t.app.inject({ method: 'GET', url: '/api/playlists', headers: bearer(owner) })).json<{ id: number; name: string }[]>();
    expect(lists.map((list) => list.name)).toEqual(['Road Trip']);
    const playlistUrl = `/api/playlists/${lists[0]!.id}`;
    const songsOf = async () =>
      (await t!.app.inject({ method: 'GET', url: playlistUrl, headers: bearer(owner) })).json<{ songs: { id: number }[] }>().songs.map((song) => song.id);
    expect(await songsOf()).toEqual([idOf('04 Flac.flac'), idOf('vorbis.ogg'), idOf('plain song.mp3')]);
    const report = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    expect(report.problems).toContainEqual({ folder, path: 'Playlists/Road Trip.m3u8', reason: entriesNotFound(['Nobody - Nothing']) });

    // The file changes: the playlist follows.
    await fs.writeFile(m3u, '#EXTM3U\n../Loose/vorbis.ogg\n');
    await scan();
    expect(await songsOf()).toEqual([idOf('vorbis.ogg')]);

    // Deleted by its owner: not made again, even when the file changes.
    await t.app.inject({ method: 'DELETE', url: playlistUrl, headers: bearer(owner) });
    await fs.writeFile(m3u, '#EXTM3U\n../Loose/vorbis.ogg\n../Artist/Album/04 Flac.flac\n');
    await scan();
    expect((await t.app.inject({ method: 'GET', url: '/api/playlists', headers: bearer(owner) })).json()).toEqual([]);
  });

  it('lists a file dropped into a watched folder', async () => {
    const { t, owner, folder } = await start({ MUSIC_WATCH: setup.engine === 'pglite' ? 'on' : 'poll' });
    const before = (await allSongs(t, owner)).length;
    await fs.copyFile(fixtures.taggedMp3, path.join(folder, 'Artist/dropped in.mp3'));
    await expect.poll(async () => (await allSongs(t, owner)).some((song) => song.fileName === 'dropped in.mp3'), { timeout: 15_000, interval: 250 }).toBe(true);
    expect((await allSongs(t, owner)).length).toBe(before + 1);

    // Moved to another folder and renamed while it runs: the same song, with its like.
    const dropped = (await allSongs(t, owner)).find((song) => song.fileName === 'dropped in.mp3')!;
    await t.app.inject({ method: 'POST', url: `/api/files/${dropped.id}/like`, headers: bearer(owner) });
    await fs.rename(path.join(folder, 'Artist/dropped in.mp3'), path.join(folder, 'Loose/moved and renamed.mp3'));
    const rows = t.app.encore.modules.internals(musicFoldersModule).repository;
    await expect
      .poll(async () => (await rows.filesOf(folder)).find((row) => row.path === 'Loose/moved and renamed.mp3' && row.missingSince === null)?.songId, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(dropped.id);
    await expect.poll(async () => (await allSongs(t, owner)).find((song) => song.id === dropped.id)?.isLiked, { timeout: 15_000, interval: 250 }).toBe(true);
    expect((await allSongs(t, owner)).length).toBe(before + 1);

    // Deleted while it runs: gone from the list.
    await fs.rm(path.join(folder, 'Loose/moved and renamed.mp3'));
    await expect.poll(async () => (await allSongs(t, owner)).some((song) => song.id === dropped.id), { timeout: 15_000, interval: 250 }).toBe(false);
    expect((await allSongs(t, owner)).length).toBe(before);
  });
});

describe.runIf(engines.includes('postgres'))('music folders with two processes on one PostgreSQL database', () => {
  it('are scanned by one of them: every file is one song', async () => {
    const folder = await musicFolder();
    const first = await startLibraryApp({ engine: 'postgres', storage: 'local' }, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    try {
      const second = await startTestApp('postgres', {
        MUSIC_FOLDERS: folder,
        MUSIC_WATCH: 'off',
        DATABASE_URL: first.config.databaseUrl!,
        DATA_DIR: first.dataDir,
      });
      try {
        const owner = await account(first, 'owner');
        await Promise.all([service(first).idle(), second.app.encore.modules.internals(musicFoldersModule).service.idle()]);
        // Both asked at once: the lease holder scans, the other's request is picked up, never run twice at once.
        await Promise.all([
          first.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) }),
          second.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) }),
        ]);
        await Promise.all([service(first).idle(), second.app.encore.modules.internals(musicFoldersModule).service.idle()]);
        const songs = await allSongs(first, owner);
        expect(songs).toHaveLength(11);
        expect(new Set(songs.map((song) => song.fileName)).size).toBe(11);
      } finally {
        await second.app.close();
      }
    } finally {
      await first.close();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
