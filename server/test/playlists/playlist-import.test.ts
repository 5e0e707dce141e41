import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PLAYLIST_IMPORT_MAX_BYTES, PLAYLIST_IMPORT_MESSAGES, type PlaylistImportResult } from '@encore/common/playlists.contract';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface SongSeed {
  fileName: string;
  artist: string | null;
  title: string | null;
  durationSeconds: number | null;
}

// Songs of the shared collection, by a key each test names them with.
const SEEDS: Record<string, SongSeed> = {
  river: { fileName: 'River Song.mp3', artist: 'Björk', title: 'Río', durationSeconds: 200.4 },
  hills: { fileName: 'hills.flac', artist: 'The Hills', title: 'Green', durationSeconds: 180 },
  dawnA: { fileName: 'Dawn.mp3', artist: 'Early', title: 'Dawn', durationSeconds: 150 },
  dawnB: { fileName: 'dawn.MP3', artist: 'Late', title: 'Dusk', durationSeconds: 240 },
  night: { fileName: '01 - track.mp3', artist: 'Nocturne', title: 'Night Drive', durationSeconds: 300 },
  twin1: { fileName: 'twin-a.mp3', artist: 'Twins', title: 'Same', durationSeconds: 100 },
  twin2: { fileName: 'twin-b.mp3', artist: 'Twins', title: 'Same', durationSeconds: 101 },
  untagged: { fileName: 'Mystery.ogg', artist: null, title: null, durationSeconds: null },
};

describe.each(engines)('importing M3U playlists on %s', (engine) => {
  let t: TestApp;
  let ada: string;
  let bob: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine);
    ada = await tokenFor('ada');
    bob = await tokenFor('bob');
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select().from(users).where(eq(users.userName, 'bob'));
    for (const [key, seed] of Object.entries(SEEDS)) {
      const [row] = await db
        .insert(songs)
        .values({
          ownerId: owner!.id,
          displayName: seed.title ?? seed.fileName,
          fileName: seed.fileName,
          fileType: 'audio/mpeg',
          storageKey: `songs/${randomUUID()}/${seed.fileName.replace(/ /g, '_')}`,
          size: 1000,
          durationSeconds: seed.durationSeconds,
          artist: seed.artist,
          title: seed.title,
        })
        .returning();
      ids[key] = row!.id;
    }
  });
  afterAll(async () => t?.close());

  async function tokenFor(userName: string): Promise<string> {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'password 123' } });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: 'password 123' } });
    return response.json<{ token: string }>().token;
  }

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
  const newPlaylist = async (name: string, songKeys: string[] = []) => {
    const { id } = (await call(ada, 'POST', '/api/playlists', { name })).json<{ id: number }>();
    for (const key of songKeys) expect((await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: ids[key] })).statusCode).toBe(200);
    return id;
  };
  const importText = (playlistId: number, text: unknown, token = ada) => call(token, 'POST', `/api/playlists/${playlistId}/import`, { text });
  const songsOf = async (playlistId: number) =>
    (await call(ada, 'GET', `/api/playlists/${playlistId}`)).json<{ songs: { id: number }[] }>().songs.map((s) => s.id);

  it('reproduces an exported playlist, in order, in another playlist', async () => {
    const source = await newPlaylist('Source', ['night', 'dawnB', 'river', 'twin2']);
    const exported = await call(ada, 'GET', `/api/playlists/${source}/m3u8`);
    expect(exported.statusCode).toBe(200);
    const target = await newPlaylist('Target');
    const response = await importText(target, exported.body);
    expect(response.statusCode).toBe(200);
    const result = response.json<PlaylistImportResult>();
    expect(result.report).toEqual({ added: 4, alreadyThere: 0, notFound: [] });
    expect(result.playlist.songs.map((s) => s.id)).toEqual([ids.night, ids.dawnB, ids.river, ids.twin2]);
    expect(await songsOf(target)).toEqual([ids.night, ids.dawnB, ids.river, ids.twin2]);
  });

  it('matches song pages and API paths by id', async () => {
    const target = await newPlaylist('Links');
    const text = `https://elsewhere.example/music/${ids.hills}\n/api/files/${ids.untagged}/play\n`;
    const result = (await importText(target, text)).json<PlaylistImportResult>();
    expect(result.report.added).toBe(2);
    expect(result.playlist.songs.map((s) => s.id)).toEqual([ids.hills, ids.untagged]);
  });

  it('matches by file name (case-insensitive, any path form), then by #EXTINF artist, title and duration', async () => {
    const target = await newPlaylist('Paths', ['hills']);
    const text = [
      '\uFEFF#EXTM3U',
      '# a comment',
      '#EXTINF:-1,Somebody - Something',
      'C:\\Users\\ada\\Music\\MYSTERY.OGG',
      '',
      '#EXTINF:180,The Hills - Green',
      '../music/hills.flac',
      '#EXTINF:202,bjork - rio',
      'D:\\elsewhere\\renamed.mp3',
      '#EXTINF:300,Nocturne - Night Drive',
      'file:///home/ada/Music/01%20-%20track.mp3',
      '#EXTINF:299,NOCTURNE - night drive',
      'https://radio.example/stream/unknown.mp3?x=1',
    ].join('\r\n');
    const response = await importText(target, text);
    expect(response.statusCode).toBe(200);
    const result = response.json<PlaylistImportResult>();
    // hills was there; night is named twice (by path, then by its tags): one place.
    expect(result.report).toEqual({ added: 3, alreadyThere: 2, notFound: [] });
    expect(result.playlist.songs.map((s) => s.id)).toEqual([ids.hills, ids.untagged, ids.river, ids.night]);
  });

  it('leaves out an ambiguous file name, a duration too far and tags two songs share, and reports them', async () => {
    const target = await newPlaylist('Unsure');
    const text = [
      '#EXTM3U',
      '/music/Dawn.mp3',
      '#EXTINF:190,The Hills - Green',
      '/music/other-green.mp3',
      '#EXTINF:100,Twins - Same',
      'twins.mp3',
      'nowhere/at/all.mp3',
    ].join('\n');
    const result = (await importText(target, text)).json<PlaylistImportResult>();
    expect(result.report).toEqual({
      added: 0,
      alreadyThere: 0,
      notFound: [{ entry: '/music/Dawn.mp3' }, { entry: 'The Hills - Green' }, { entry: 'Twins - Same' }, { entry: 'nowhere/at/all.mp3' }],
    });
    expect(result.playlist.songs).toEqual([]);
  });

  it("answers 404 for another user's playlist and one that does not exist, adding nothing", async () => {
    const target = await newPlaylist('Private');
    const response = await importText(target, 'hills.flac\n', bob);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Playlist not found' });
    expect((await importText(2_000_000, 'hills.flac\n')).statusCode).toBe(404);
    expect(await songsOf(target)).toEqual([]);
  });

  it('refuses an empty file, one without entries, one that is not a playlist and one too large, adding nothing', async () => {
    const target = await newPlaylist('Refused', ['river']);
    const cases: [unknown, string][] = [
      ['', PLAYLIST_IMPORT_MESSAGES.empty],
      [' \r\n\n', PLAYLIST_IMPORT_MESSAGES.empty],
      [undefined, PLAYLIST_IMPORT_MESSAGES.fileRequired],
      ['#EXTM3U\n# nothing but comments\n#EXTINF:10,A - B\n', PLAYLIST_IMPORT_MESSAGES.noEntries],
      ['<!DOCTYPE html>\n<html><body>hills.flac</body></html>', PLAYLIST_IMPORT_MESSAGES.notM3u],
      ['ID3\u0003\u0001\u0002hills.flac', PLAYLIST_IMPORT_MESSAGES.notM3u],
      [`hills.flac\n${'#'.repeat(PLAYLIST_IMPORT_MAX_BYTES)}\n`, PLAYLIST_IMPORT_MESSAGES.tooLarge],
      [`${'é'.repeat(PLAYLIST_IMPORT_MAX_BYTES / 2)}\n`, PLAYLIST_IMPORT_MESSAGES.tooLarge],
    ];
    for (const [text, message] of cases) {
      const response = await importText(target, text);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    // A NUL is refused by every call, before the import reads the text.
    expect((await importText(target, 'ID3\u0000hills.flac')).statusCode).toBe(400);
    expect(await songsOf(target)).toEqual([ids.river]);
  });
});
