import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SongListEntry } from '@encore/common/library.contract';
import type { MusicFoldersResponse } from '@encore/common/music-folders.contract';
import { musicFoldersModule } from '../../src/features/music-folders/music-folders.module.js';
import { LINK_OUTSIDE } from '../../src/features/music-folders/folder-bounds.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { account, bearer, fetchUrl, localSetups, startLibraryApp, type LibraryApp } from '../library/library-test-kit.js';

/**
 * Issue 37, item 2: a music folder hands out only the files that were scanned in it. A song's
 * file swapped for a link to Encore's own secret is never served, streamed, transcoded or read
 * as lyrics; a link to audio outside every music folder is not followed unless the owner says so.
 */
let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => {
  await fixtures?.cleanup();
});

const service = (t: LibraryApp) => t.app.encore.modules.internals(musicFoldersModule).service;

async function allSongs(t: LibraryApp, token: string): Promise<SongListEntry[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/files?limit=200', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<SongListEntry[]>();
}

describe.each(localSetups)('reads of a music folder on $engine', (setup) => {
  let t: LibraryApp | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });

  async function tempDir(prefix: string): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  }

  async function rescan(app: LibraryApp, owner: string): Promise<void> {
    expect((await app.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) })).statusCode).toBe(202);
    await service(app).idle();
  }

  it('never serves a scanned song swapped for a link to the secret, by any read', async () => {
    const folder = await tempDir('encore-music-');
    await fs.copyFile(fixtures.plainMp3, path.join(folder, 'song.mp3'));
    await fs.copyFile(fixtures.opus, path.join(folder, 'other.opus'));
    await fs.writeFile(path.join(folder, 'other.lrc'), '[00:00.50]A real line\n');
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    const owner = await account(t, 'owner');
    const listener = await account(t, 'listener');
    const key = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(listener), payload: { name: 'Player' } })).json<{
      key: string;
    }>().key;
    await service(t).idle();
    const songs = await allSongs(t, listener);
    const song = songs.find((entry) => entry.fileName === 'song.mp3')!;
    expect(song).toBeDefined();
    const play = (await t.app.inject({ method: 'GET', url: `/api/files/${song.id}/play`, headers: bearer(listener) })).json<{ url: string }>().url;

    const secretFile = path.join(t.dataDir, 'secrets', 'jwt-secret');
    const secret = await fs.readFile(secretFile);
    expect(secret.length).toBeGreaterThan(16);
    await fs.rm(path.join(folder, 'song.mp3'));
    await fs.symlink(secretFile, path.join(folder, 'song.mp3'));

    const subsonic = (query: string) => `${query}&apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json`;
    const urls = [
      `/api/files/${song.id}/download`,
      subsonic(`/rest/download?id=${song.id}`),
      subsonic(`/rest/stream?id=${song.id}`),
      subsonic(`/rest/stream?id=${song.id}&format=mp3&maxBitRate=64`),
    ];
    // Over a real connection: the transcode follows its client's socket.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    for (const url of urls) {
      const read = await fetch(`${base}${url}`, { headers: bearer(listener) });
      const body = Buffer.from(await read.arrayBuffer());
      // Refused (the Subsonic API says so in its own error answer), never the secret's bytes.
      expect(body.includes(secret), url).toBe(false);
      expect(read.headers.get('content-type') ?? '', url).not.toMatch(/^audio\//);
    }
    // The player's signed URL refuses too.
    const fetched = await fetchUrl(t, play);
    expect(fetched.body.includes(secret)).toBe(false);
    expect(fetched.status).toBe(404);

    // The same for lyrics beside a song: an .lrc that is a link to the secret is not read as lyrics.
    await fs.copyFile(fixtures.vorbis, path.join(folder, 'third.ogg'));
    await fs.symlink(secretFile, path.join(folder, 'third.lrc'));
    await rescan(t, owner);
    const third = (await allSongs(t, listener)).find((entry) => entry.fileName === 'third.ogg')!;
    expect(third).toBeDefined();
    const lyrics = await t.app.inject({ method: 'GET', url: `/api/files/${third.id}/lyrics`, headers: bearer(owner) });
    expect(lyrics.body).not.toContain(secret.toString('utf8').trim().slice(0, 16));
    const other = (await allSongs(t, listener)).find((entry) => entry.fileName === 'other.opus')!;
    const real = await t.app.inject({ method: 'GET', url: `/api/files/${other.id}/lyrics`, headers: bearer(owner) });
    expect(real.body).toContain('A real line');

    // The scan reads the link as what it is: not the song any more.
    const after = await allSongs(t, listener);
    expect(after.some((entry) => entry.id === song.id)).toBe(false);
  }, 300_000);

  it('does not follow a link to audio outside the music folders unless MUSIC_FOLLOW_LINKS is on', async () => {
    const folder = await tempDir('encore-music-');
    const outside = await tempDir('encore-outside-');
    await fs.copyFile(fixtures.plainMp3, path.join(outside, 'elsewhere.mp3'));
    await fs.mkdir(path.join(outside, 'Album'));
    await fs.copyFile(fixtures.opus, path.join(outside, 'Album', 'in album.opus'));
    await fs.copyFile(fixtures.vorbis, path.join(folder, 'inside.ogg'));
    await fs.symlink(path.join(outside, 'elsewhere.mp3'), path.join(folder, 'linked.mp3'));
    await fs.symlink(path.join(outside, 'Album'), path.join(folder, 'Linked Album'));
    // A link inside the folder is followed as ever.
    await fs.symlink(path.join(folder, 'inside.ogg'), path.join(folder, 'again.ogg'));

    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    let owner = await account(t, 'owner');
    await service(t).idle();
    expect((await allSongs(t, owner)).map((song) => song.fileName).sort()).toEqual(['again.ogg', 'inside.ogg']);
    const overview = (await t.app.inject({ method: 'GET', url: '/api/music-folders', headers: bearer(owner) })).json<MusicFoldersResponse>();
    const reasons = Object.fromEntries(overview.problems.map((problem) => [problem.path, problem.reason]));
    expect(reasons['linked.mp3']).toBe(LINK_OUTSIDE);
    expect(reasons['Linked Album']).toBe(LINK_OUTSIDE);
    await t.close();

    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off', MUSIC_FOLLOW_LINKS: 'true' });
    owner = await account(t, 'owner');
    await service(t).idle();
    const followed = await allSongs(t, owner);
    expect(followed.map((song) => song.fileName).sort()).toEqual(['again.ogg', 'in album.opus', 'inside.ogg', 'linked.mp3']);
    const linked = followed.find((song) => song.fileName === 'linked.mp3')!;
    const download = await t.app.inject({ method: 'GET', url: `/rest/download?id=${linked.id}` });
    expect(download.statusCode).toBeLessThan(500);
    const play = (await t.app.inject({ method: 'GET', url: `/api/files/${linked.id}/play`, headers: bearer(owner) })).json<{ url: string }>().url;
    const fetched = await fetchUrl(t, play);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(await fs.readFile(fixtures.plainMp3));
  }, 300_000);

  it('serves a changed file only once it is scanned again', async () => {
    const folder = await tempDir('encore-music-');
    await fs.copyFile(fixtures.plainMp3, path.join(folder, 'song.mp3'));
    t = await startLibraryApp(setup, { MUSIC_FOLDERS: folder, MUSIC_WATCH: 'off' });
    const owner = await account(t, 'owner');
    await service(t).idle();
    const song = (await allSongs(t, owner))[0]!;
    await fs.copyFile(fixtures.taggedMp3, path.join(folder, 'song.mp3'));
    const play = (await t.app.inject({ method: 'GET', url: `/api/files/${song.id}/play`, headers: bearer(owner) })).json<{ url?: string }>().url;
    if (play !== undefined) expect((await fetchUrl(t, play)).status).toBe(404);
    // The refused read asked for that folder to be scanned again: then it plays, as the new file.
    await service(t).idle();
    const again = (await t.app.inject({ method: 'GET', url: `/api/files/${song.id}/play`, headers: bearer(owner) })).json<{ url: string }>().url;
    const fetched = await fetchUrl(t, again);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(await fs.readFile(fixtures.taggedMp3));
  }, 300_000);
});
