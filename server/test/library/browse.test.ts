import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { account, bearer, fetchUrl, localSetups, mediaFiles, songRows, startLibraryApp, upload, type LibraryApp } from './library-test-kit.js';

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(localSetups)('browse, like, download and delete on $engine', (setup) => {
  let t: LibraryApp;
  let ann: string;
  let bob: string;
  /** Uploaded oldest first: ann's tagged song, ann's plain demo, bob's opus, bob's flac. */
  let songs: Song[];
  beforeAll(async () => {
    t = await startLibraryApp(setup);
    ann = await account(t, 'ann');
    bob = await account(t, 'bob');
    songs = [];
    for (const [token, file, fileName] of [
      [ann, fixtures.taggedMp3, 'tagged.mp3'],
      [ann, fixtures.plainMp3, '50% off_sale.mp3'],
      [bob, fixtures.opus, 'opus.ogg'],
      [bob, fixtures.flac, 'lossless.flac'],
    ] as const) {
      const result = await upload(t, token, file, { fileName });
      expect(result.complete.statusCode).toBe(201);
      songs.push(result.song);
    }
  });
  afterAll(async () => t?.close());

  const get = (url: string, token?: string) => t.app.inject({ url, headers: token ? bearer(token) : {} });
  const list = async (query: string, token = ann) => {
    const response = await get(`/api/files${query}`, token);
    expect(response.statusCode).toBe(200);
    return response.json<Song[]>();
  };
  const names = (list: Song[]) => list.map((song) => song.displayName);
  const like = (id: number | string, token = ann) => t.app.inject({ method: 'POST', url: `/api/files/${id}/like`, headers: bearer(token) });

  it('lists every song of everyone, newest first, with isOwner and uploadedBy for the caller', async () => {
    const all = await list('');
    expect(names(all)).toEqual(['FLAC Artist - FLAC Song', 'Opus Artist - Opus Song', '50% off_sale', 'The Testers - Café Ünïcode']);
    expect(all.map((song) => [song.uploadedBy, song.isOwner])).toEqual([
      ['bob', false],
      ['bob', false],
      ['ann', true],
      ['ann', true],
    ]);
    expect(names(await list('?owner=true'))).toEqual(['50% off_sale', 'The Testers - Café Ünïcode']);
    expect(names(await list('?owner=true', bob))).toEqual(['FLAC Artist - FLAC Song', 'Opus Artist - Opus Song']);
    expect(names(await list('?owner=false'))).toHaveLength(4);
  });

  it('searches display name, artist and album, case-insensitively, treating % and _ literally', async () => {
    expect(names(await list('?q=caf%C3%A9'))).toEqual(['The Testers - Café Ünïcode']);
    expect(names(await list('?q=FIXTURE%20album'))).toEqual(['The Testers - Café Ünïcode']);
    expect(names(await list('?q=opus%20ARTIST'))).toEqual(['Opus Artist - Opus Song']);
    expect(names(await list('?q=50%25'))).toEqual(['50% off_sale']);
    expect(names(await list('?q=f_s'))).toEqual(['50% off_sale']);
    expect(await list('?q=nothing%20like%20this')).toEqual([]);
    expect(names(await list('?q=song&owner=true', bob))).toEqual(['FLAC Artist - FLAC Song', 'Opus Artist - Opus Song']);
  });

  it('pages with limit and offset, and refuses bad ones', async () => {
    const all = names(await list(''));
    expect(names(await list('?limit=2'))).toEqual(all.slice(0, 2));
    expect(names(await list('?limit=2&offset=2'))).toEqual(all.slice(2, 4));
    expect(names(await list('?offset=3'))).toEqual(all.slice(3));
    for (const bad of ['?limit=0', '?limit=-1', '?limit=abc', '?offset=-1', '?owner=maybe']) {
      expect((await get(`/api/files${bad}`, ann)).statusCode, bad).toBe(400);
    }
  });

  it('toggles likes per user; favorites lists only the caller’s', async () => {
    const [flac, opus] = songs.slice().reverse();
    const first = await like(opus?.id ?? 0);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id: opus?.id, isLiked: true });
    expect((await like(flac?.id ?? 0)).json()).toEqual({ id: flac?.id, isLiked: true });
    expect((await like(flac?.id ?? 0)).json()).toEqual({ id: flac?.id, isLiked: false });

    expect(names(await list('?favorites=true'))).toEqual(['Opus Artist - Opus Song']);
    expect(await list('?favorites=true', bob)).toEqual([]);
    expect((await list('')).filter((song) => song.isLiked).map((song) => song.id)).toEqual([opus?.id]);
    expect((await list('', bob)).some((song) => song.isLiked)).toBe(false);
    expect((await get(`/api/files/${opus?.id}`, ann)).json()).toMatchObject({ id: opus?.id, isLiked: true, isOwner: false });
    expect((await get(`/api/files/${opus?.id}`, bob)).json()).toMatchObject({ isLiked: false, isOwner: true });
  });

  it('lists every song the caller liked under favorites=true, whoever uploaded it, even with owner=true', async () => {
    const [tagged, , opus] = songs;
    const liked = await list('?favorites=true');
    if (!liked.some((song) => song.id === opus?.id)) await like(opus?.id ?? 0);
    expect((await like(tagged?.id ?? 0)).json()).toEqual({ id: tagged?.id, isLiked: true });

    // The spec's Favorites link is /music?owner=true&favorites=true: bob uploaded the opus song.
    const favorites = await list('?owner=true&favorites=true');
    expect(names(favorites)).toEqual(['Opus Artist - Opus Song', 'The Testers - Café Ünïcode']);
    expect(favorites.every((song) => song.isLiked)).toBe(true);
    expect(names(await list('?owner=true&favorites=true&q=opus'))).toEqual(['Opus Artist - Opus Song']);
    expect(await list('?owner=true&favorites=true', bob)).toEqual([]);

    expect((await like(tagged?.id ?? 0)).json()).toEqual({ id: tagged?.id, isLiked: false });
    expect(names(await list('?owner=true&favorites=true'))).toEqual(['Opus Artist - Opus Song']);
  });

  it('answers one song, and clear errors for ids that are not numbers or do not exist', async () => {
    const song = songs[0];
    expect((await get(`/api/files/${song?.id}`, bob)).json()).toEqual({
      ...song,
      isOwner: false,
      analysis: null,
      replayGain: null,
      playCount: 0,
      lastPlayedAt: null,
    });
    for (const id of ['abc', '1.5', '0', '-3', '1e3', '2147483648', '99999999999']) {
      const response = await get(`/api/files/${id}`, ann);
      expect(response.statusCode, id).toBe(400);
      expect(response.json()).toEqual({ message: 'The song id must be a whole number from 1 to 2147483647' });
    }
    for (const id of ['999999', '2147483647']) {
      const response = await get(`/api/files/${id}`, ann);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ message: 'Song not found' });
      expect((await get(`/api/files/${id}/play`, ann)).statusCode).toBe(404);
      expect((await like(id)).statusCode).toBe(404);
    }
  });

  it('documents every library and sharing call in the OpenAPI document', async () => {
    const doc = (await get('/api/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/files',
        '/api/files/extract-image',
        '/api/files/{id}',
        '/api/files/{id}/play',
        '/api/files/{id}/like',
        '/api/files/{id}/download',
        '/api/upload/presigned-url',
        '/api/upload/upload-complete',
        '/api/email/send-song-link',
        '/api/share/{token}',
      ]),
    );
  });

  it('requires sign-in for every /files call', async () => {
    const id = songs[0]?.id ?? 0;
    for (const url of ['/api/files', `/api/files/${id}`, `/api/files/${id}/play`, `/api/files/${id}/download`, '/api/files/extract-image?fileKey=x']) {
      expect((await get(url)).statusCode, url).toBe(401);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/files/${id}/like` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${id}` })).statusCode).toBe(401);
  });

  it('downloads the original bytes as an attachment under the original name', async () => {
    const song = songs[1];
    const response = await get(`/api/files/${song?.id}/download`, bob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/mpeg');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="50_ off_sale.mp3"; filename*=UTF-8''50%25%20off_sale.mp3`);
    expect(response.rawPayload.equals(await fs.readFile(fixtures.plainMp3))).toBe(true);
  });

  it('serves cover art with a cache header and ETag, 204 without one, 404 for an unknown key', async () => {
    const [tagged, plain] = songs;
    const url = `/api/files/extract-image?fileKey=${encodeURIComponent(tagged?.s3Key ?? '')}&size=thumb`;
    const image = await get(url, bob);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('private, max-age=86400');
    expect(image.rawPayload.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    const etag = String(image.headers['etag']);
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ url, headers: { ...bearer(bob), 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const none = await get(`/api/files/extract-image?fileKey=${encodeURIComponent(plain?.s3Key ?? '')}`, bob);
    expect(none.statusCode).toBe(204);
    expect(none.rawPayload.length).toBe(0);
    const unknown = await get('/api/files/extract-image?fileKey=uploads/1/nothing.mp3', bob);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Song not found' });
    expect((await get('/api/files/extract-image', bob)).json()).toEqual({ message: 'fileKey is required' });
  });

  it('lets only the uploader delete a song, removing its row, likes and stored files', async () => {
    const tagged = songs[0];
    if (!tagged) throw new Error('no song');
    expect(await like(tagged.id, bob)).toMatchObject({ statusCode: 200 });
    const [row] = (await songRows(t)).filter((r) => r.id === tagged.id);
    const keys = [row?.storageKey, row?.coverKey, row?.coverThumbKey].filter((key): key is string => Boolean(key));
    expect(keys).toHaveLength(3);
    const { url } = (await get(`/api/files/${tagged.id}/play`, ann)).json<{ url: string }>();

    const denied = await t.app.inject({ method: 'DELETE', url: `/api/files/${tagged.id}`, headers: bearer(bob) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'Only the uploader can delete this song.' });
    expect((await get(`/api/files/${tagged.id}`, ann)).statusCode).toBe(200);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/files/${tagged.id}`, headers: bearer(ann) });
    expect(deleted.statusCode).toBe(204);
    expect((await get(`/api/files/${tagged.id}`, ann)).statusCode).toBe(404);
    expect((await list('')).map((song) => song.id)).not.toContain(tagged.id);
    expect(await list('?favorites=true', bob)).toEqual([]);
    for (const key of keys) expect(await t.app.encore.platform.storage.stat(key)).toBeNull();
    expect((await mediaFiles(t)).filter((file) => keys.some((key) => file.includes(key)))).toEqual([]);
    expect((await fetchUrl(t, url)).status).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${tagged.id}`, headers: bearer(ann) })).statusCode).toBe(404);
  });
});
