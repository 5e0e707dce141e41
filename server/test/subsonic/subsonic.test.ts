import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SubsonicAPI } from 'subsonic-api';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { putLyrics } from '../lyrics/lyrics-test-kit.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  status: 'ok' | 'failed';
  version: string;
  type: string;
  serverVersion: string;
  openSubsonic: boolean;
  error?: { code: number; message: string };
  [key: string]: unknown;
}

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(engines)('the Subsonic API (%s)', (engine) => {
  let t: TestApp;
  let musicDir: string | undefined;
  let base: string;
  let adaToken: string;
  let bobToken: string;
  let apiKey: string;
  let appPassword: string;
  let bobKey: string;
  let tagged: Song;
  let flac: Song;
  let plain: Song;
  let folderSong: Song;

  beforeAll(async () => {
    musicDir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-music-'));
    // A song of a music folder, read in place: streamed from the folder like the others from storage.
    await copyFile(fixtures.opus, path.join(musicDir, 'Folder Song.ogg'));
    t = await startTestApp(engine, { MUSIC_FOLDERS: musicDir });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    adaToken = await account(t, 'ada');
    bobToken = await account(t, 'bob');
    const key = await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(adaToken), payload: { name: 'Feishin' } });
    expect(key.statusCode).toBe(201);
    apiKey = key.json<{ key: string }>().key;
    const password = await t.app.inject({ method: 'POST', url: '/api/auth/app-passwords', headers: bearer(adaToken), payload: { name: 'Symfonium' } });
    expect(password.statusCode).toBe(201);
    appPassword = password.json<{ password: string }>().password;
    bobKey = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(bobToken), payload: { name: 'DSub' } })).json<{ key: string }>()
      .key;
    tagged = (await upload(t, adaToken, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song;
    flac = (await upload(t, adaToken, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song;
    plain = (await upload(t, bobToken, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
    // The folder's scan runs in the background from the start.
    folderSong = await vi.waitFor(
      async () => {
        const found = (await t.app.inject({ url: '/api/files', headers: bearer(adaToken) })).json<Song[]>().find((song) => song.uploadedBy === '');
        if (!found) throw new Error('the music folder is not scanned yet');
        return found;
      },
      { timeout: 15_000, interval: 50 },
    );
  });
  afterAll(async () => {
    await t?.close();
    if (musicDir) await rm(musicDir, { recursive: true, force: true });
  });

  const client = (options: { post?: boolean } = {}) => new SubsonicAPI({ url: base, auth: { apiKey }, ...options });
  const raw = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const json = async (path: string, init?: RequestInit): Promise<Envelope> => {
    const response = await raw(path, init);
    expect(response.status).toBe(200);
    return (JSON.parse(response.text) as { 'subsonic-response': Envelope })['subsonic-response'];
  };
  const withKey = (query: string, key = apiKey) => `${query}${query.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json`;

  it('answers ping with the envelope, by API key, by app password (token and plain), as GET and as form POST', async () => {
    const byKey = await client().ping();
    expect(byKey).toMatchObject({ status: 'ok', version: '1.16.1', type: 'encore', serverVersion: '0.1.0', openSubsonic: true });
    const byToken = new SubsonicAPI({ url: base, auth: { username: 'ada', password: appPassword } });
    expect((await byToken.ping()).status).toBe('ok');
    expect((await new SubsonicAPI({ url: base, auth: { username: 'ada', password: appPassword }, post: true }).ping()).status).toBe('ok');
    expect((await client({ post: true }).getLicense()).license).toMatchObject({ valid: true });
    const hex = Buffer.from(appPassword, 'utf8').toString('hex');
    expect((await json(`/rest/ping?u=ada&p=enc:${hex}&v=1.16.1&c=test&f=json`)).status).toBe('ok');
    expect((await json(`/rest/ping.view?u=ada&p=${encodeURIComponent(appPassword)}&f=json`)).status).toBe('ok');
  });

  it('refuses missing, wrong and conflicting credentials with their codes, over HTTP 200', async () => {
    expect((await json('/rest/ping.view?f=json')).error?.code).toBe(10);
    expect((await json('/rest/ping.view?f=json&u=ada')).error?.code).toBe(10);
    expect((await json('/rest/ping.view?f=json&u=ada&t=abc')).error?.code).toBe(10);
    expect((await json(`/rest/ping.view?f=json&u=ada&apiKey=${apiKey}`)).error?.code).toBe(43);
    expect((await json('/rest/ping.view?f=json&apiKey=not-a-key')).error?.code).toBe(44);
    expect((await json('/rest/ping.view?f=json&u=ada&p=wrong-password')).error?.code).toBe(40);
    const salt = 'pepper';
    const token = createHash('md5').update(`wrong${salt}`).digest('hex');
    expect((await json(`/rest/ping.view?f=json&u=ada&t=${token}&s=${salt}`)).error?.code).toBe(40);
    // A revoked key stops working at once.
    const spare = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(adaToken), payload: { name: 'Spare' } })).json<{
      id: number;
      key: string;
    }>();
    expect((await json(withKey('/rest/ping', spare.key))).status).toBe('ok');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/auth/api-keys/${spare.id}`, headers: bearer(adaToken) })).statusCode).toBe(204);
    expect((await json(withKey('/rest/ping', spare.key))).error?.code).toBe(44);
    // The account's own password is never accepted here.
    const accountPassword = await json('/rest/ping.view?f=json&u=ada&p=library%20password%201');
    expect(accountPassword.status).toBe('failed');
    expect(accountPassword.error?.code).toBe(41);
    expect(accountPassword.error?.message).toMatch(/app password/i);
    expect(accountPassword.error).toMatchObject({ helpUrl: 'http://encore.test/profile' });
    expect((await json('/rest/ping.view?f=json&u=ada&p=wrong-password')).error).not.toHaveProperty('helpUrl');
  });

  it('writes XML by default and for an unknown f, JSON with f=json, JSONP with a callback', async () => {
    const xml = await raw(`/rest/ping.view?apiKey=${apiKey}`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<subsonic-response xmlns="http:\/\/subsonic.org\/restapi" status="ok" version="1.16.1" type="encore" serverVersion="0.1.0" openSubsonic="true"\/>$/,
    );
    expect((await raw(`/rest/ping?apiKey=${apiKey}&f=yaml`)).text).toContain('<subsonic-response xmlns="http://subsonic.org/restapi" status="ok"');
    const failed = await raw('/rest/getSong.view?apiKey=' + apiKey + '&id=999999');
    expect(failed.text).toContain('status="failed"');
    expect(failed.text).toMatch(/<error code="70" message="[^"]+"\/>/);
    const jsonp = await raw(`/rest/ping.view?apiKey=${apiKey}&f=jsonp&callback=player.onPing`);
    expect(jsonp.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(jsonp.text).toMatch(/^player\.onPing\(\{"subsonic-response":\{"status":"ok".*\}\);$/);
    const badCallback = await raw(`/rest/ping.view?apiKey=${apiKey}&f=jsonp&callback=alert(1)`);
    expect(JSON.parse(badCallback.text)).toMatchObject({ 'subsonic-response': { status: 'failed', error: { code: 10 } } });
    expect((await json(withKey('/rest/noSuchMethod.view'))).status).toBe('failed');
    // Lists as child elements, a genre's name as its text.
    const genres = await raw(`/rest/getGenres?apiKey=${apiKey}`);
    expect(genres.text).toMatch(/<genres><genre songCount="1" albumCount="1">Electronic<\/genre>/);
  });

  it('answers getOpenSubsonicExtensions without credentials, and the system calls', async () => {
    const extensions = await json('/rest/getOpenSubsonicExtensions.view?f=json');
    expect(extensions.status).toBe('ok');
    expect(extensions['openSubsonicExtensions']).toEqual(
      expect.arrayContaining([
        { name: 'apiKeyAuthentication', versions: [1] },
        { name: 'formPost', versions: [1] },
        { name: 'songLyrics', versions: [1, 2] },
      ]),
    );
    expect((await client().getMusicFolders()).musicFolders.musicFolder).toEqual([
      { id: 0, name: 'Uploads' },
      { id: 1, name: path.basename(musicDir!) },
    ]);
    expect((await client().getUser({ username: 'ada' })).user).toMatchObject({ username: 'ada', adminRole: true, streamRole: true, playlistRole: true });
    // Ada is the instance's admin: she sees Bob's user too (the admin page's rule).
    expect((await json(withKey('/rest/getUser?username=bob'))).user).toMatchObject({ username: 'bob', adminRole: false });
  });

  it('browses artists, albums, songs and genres built from the tags', async () => {
    const api = client();
    const artists = (await api.getArtists()).artists.index ?? [];
    const all = artists.flatMap((index) => (index.artist ?? []).map((artist) => ({ letter: index.name, name: artist.name, id: artist.id })));
    expect(all).toEqual(expect.arrayContaining([expect.objectContaining({ letter: 'V', name: TAGGED.albumArtist })]));
    const various = all.find((artist) => artist.name === TAGGED.albumArtist)!;
    const artist = (await api.getArtist({ id: various.id })).artist;
    expect(artist.album?.map((album) => album.name)).toEqual([TAGGED.album]);
    const album = (await api.getAlbum({ id: artist.album![0]!.id })).album;
    expect(album).toMatchObject({ name: TAGGED.album, songCount: 1, year: TAGGED.year, genre: TAGGED.genre, artistId: various.id });
    const [song] = album.song ?? [];
    expect(song).toMatchObject({
      id: String(tagged.id),
      title: TAGGED.title,
      album: TAGGED.album,
      artist: TAGGED.artist,
      track: TAGGED.track,
      discNumber: TAGGED.disc,
      year: TAGGED.year,
      genre: TAGGED.genre,
      isDir: false,
      type: 'music',
      suffix: 'mp3',
      contentType: 'audio/mpeg',
      albumId: album.id,
      parent: album.id,
      coverArt: String(tagged.id),
    });
    expect(song?.duration).toBeGreaterThan(0);
    expect(song?.bitRate).toBeGreaterThan(8);
    expect((await api.getSong({ id: String(tagged.id) })).song).toMatchObject({ id: String(tagged.id), title: TAGGED.title });
    // Folder browsing over the same model.
    const indexes = (await api.getIndexes()).indexes.index ?? [];
    expect(indexes.flatMap((index) => (index.artist ?? []).map((one) => one.id))).toContain(various.id);
    const artistDirectory = (await api.getMusicDirectory({ id: various.id })).directory;
    expect(artistDirectory.child?.map((child) => [child.id, child.isDir])).toEqual([[album.id, true]]);
    expect((await api.getMusicDirectory({ id: album.id })).directory.child?.map((child) => child.id)).toEqual([String(tagged.id)]);
    expect((await json(withKey(`/rest/getMusicDirectory?id=${tagged.id}`))).error?.code).toBe(70);
    expect((await api.getGenres()).genres.genre).toEqual(expect.arrayContaining([expect.objectContaining({ value: TAGGED.genre, songCount: 1 })]));
    const newest = (await api.getAlbumList2({ type: 'newest', size: 10 })).albumList2.album ?? [];
    expect(newest.length).toBeGreaterThanOrEqual(3);
    expect((await api.getAlbumList({ type: 'alphabeticalByName' })).albumList.album?.length).toBe(newest.length);
    expect((await api.getRandomSongs({ size: 2 })).randomSongs.song).toHaveLength(2);
    expect((await api.getSongsByGenre({ genre: TAGGED.genre })).songsByGenre.song?.map((one) => one.id)).toEqual([String(tagged.id)]);
    // Bad input: unknown ids, missing and unknown parameters.
    expect((await json(withKey('/rest/getAlbum?id=al-nothing'))).error?.code).toBe(70);
    expect((await json(withKey('/rest/getArtist?id=12'))).error?.code).toBe(70);
    expect((await json(withKey('/rest/getSong?id=abc'))).error?.code).toBe(70);
    expect((await json(withKey('/rest/getSong'))).error?.code).toBe(10);
    expect((await json(withKey('/rest/getAlbumList2'))).error?.code).toBe(10);
    expect((await json(withKey('/rest/getAlbumList2?type=sideways'))).error?.code).toBe(0);
    expect((await json(withKey('/rest/getAlbumList2?type=byYear&fromYear=2000'))).error?.code).toBe(10);
    expect((await json(withKey('/rest/getAlbumList2?type=newest&size=lots'))).error?.code).toBe(0);
  });

  it('search3 with an empty query lists everything in pages (as Symfonium syncs), clamping huge counts', async () => {
    const api = client();
    const page = async (songOffset: number) => (await api.search3({ query: '""', songCount: 2, songOffset, artistCount: 0, albumCount: 0 })).searchResult3;
    const first = await page(0);
    const second = await page(2);
    const ids = [...(first.song ?? []), ...(second.song ?? [])].map((song) => song.id);
    const third = await page(4);
    ids.push(...(third.song ?? []).map((song) => song.id));
    expect(ids.sort()).toEqual([tagged.id, flac.id, plain.id, folderSong.id].map(String).sort());
    expect(third.song).toEqual([]);
    expect(first.artist ?? []).toEqual([]);
    const everything = (await json(withKey('/rest/search3?query=&songCount=100000000&songOffset=0'))) as Envelope & { searchResult3: { song: unknown[] } };
    expect(everything.searchResult3.song).toHaveLength(4);
    expect((await json(withKey('/rest/search3?query=&songOffset=99999999999'))).status).toBe('ok');
    const found = (await api.search3({ query: 'café' })).searchResult3;
    expect(found.song?.map((song) => song.id)).toEqual([String(tagged.id)]);
    expect((await api.search2({ query: 'café' })).searchResult2.song?.map((song) => song.id)).toEqual([String(tagged.id)]);
  });

  it('star and unstar are the web app’s favourites; an album stars all its songs', async () => {
    const api = client();
    const favourites = async () => (await t.app.inject({ url: '/api/files?favorites=true', headers: bearer(adaToken) })).json<Song[]>().map((song) => song.id);
    await api.star({ id: String(flac.id) });
    expect(await favourites()).toEqual([flac.id]);
    const starred = (await api.getStarred2()).starred2;
    expect(starred.song?.map((song) => song.id)).toEqual([String(flac.id)]);
    expect(starred.song?.[0]?.starred).toBeInstanceOf(Date);
    // When it was liked, after the song was added.
    expect(new Date(starred.song![0]!.starred!).getTime()).toBeGreaterThan(new Date(starred.song![0]!.created!).getTime());
    expect((await api.getStarred()).starred.song?.map((song) => song.id)).toEqual([String(flac.id)]);
    await api.unstar({ id: String(flac.id) });
    expect(await favourites()).toEqual([]);
    const albumId = (await api.getSong({ id: String(tagged.id) })).song.albumId!;
    await api.star({ albumId });
    expect(await favourites()).toEqual([tagged.id]);
    await api.unstar({ albumId });
    expect(await favourites()).toEqual([]);
    // A form POST (parameters in the body, an id repeated) stars both songs.
    const form = new URLSearchParams([
      ['apiKey', apiKey],
      ['f', 'json'],
      ['id', String(flac.id)],
      ['id', String(tagged.id)],
    ]);
    const posted = await json('/rest/star.view', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(posted.status).toBe('ok');
    expect((await favourites()).sort()).toEqual([flac.id, tagged.id].sort());
    await api.unstar({ id: [String(flac.id), String(tagged.id)] });
    expect(await favourites()).toEqual([]);
    expect((await json(withKey('/rest/star?id=999999'))).error?.code).toBe(70);
    expect((await json(withKey('/rest/star'))).error?.code).toBe(10);
  });

  it('streams the original bytes with Range, downloads with the file name, and serves covers by song and album id', async () => {
    const whole = await fetch(`${base}${withKey(`/rest/stream.view?id=${tagged.id}`)}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(tagged.size);
    const part = await fetch(`${base}${withKey(`/rest/stream?id=${tagged.id}`)}`, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const outside = await fetch(`${base}${withKey(`/rest/stream?id=${tagged.id}`)}`, { headers: { range: `bytes=${bytes.length + 10}-` } });
    expect(outside.status).toBe(416);
    await outside.arrayBuffer();
    const download = await fetch(`${base}${withKey(`/rest/download?id=${flac.id}`)}`);
    expect(download.headers.get('content-disposition')).toContain('lossless.flac');
    expect((await download.arrayBuffer()).byteLength).toBe(flac.size);
    expect((await json(withKey('/rest/stream?id=999999'))).error?.code).toBe(70);
    const folderBytes = await readFile(path.join(musicDir!, 'Folder Song.ogg'));
    const folderPart = await fetch(`${base}${withKey(`/rest/stream?id=${folderSong.id}`)}`, { headers: { range: 'bytes=-50' } });
    expect(folderPart.status).toBe(206);
    expect(folderPart.headers.get('content-range')).toBe(`bytes ${folderBytes.length - 50}-${folderBytes.length - 1}/${folderBytes.length}`);
    expect(Buffer.from(await folderPart.arrayBuffer()).equals(folderBytes.subarray(folderBytes.length - 50))).toBe(true);
    const head = await fetch(`${base}${withKey(`/rest/stream?id=${tagged.id}`)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));

    const thumb = await fetch(`${base}${withKey(`/rest/getCoverArt?id=${tagged.id}&size=100`)}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const thumbBytes = Buffer.from(await thumb.arrayBuffer());
    const full = Buffer.from(await (await fetch(`${base}${withKey(`/rest/getCoverArt?id=${tagged.id}`)}`)).arrayBuffer());
    expect(thumbBytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(full.equals(thumbBytes)).toBe(false);
    const albumId = (await client().getSong({ id: String(tagged.id) })).song.albumId!;
    const albumCover = await fetch(`${base}${withKey(`/rest/getCoverArt?id=${albumId}&size=600`)}`);
    expect(Buffer.from(await albumCover.arrayBuffer()).equals(full)).toBe(true);
    expect((await json(withKey(`/rest/getCoverArt?id=${plain.id}`))).error?.code).toBe(70);
  });

  it('gives lyrics with synced lines, and word cues with enhanced=true', async () => {
    const lrc = '[00:00.20]Hello bright world\n[00:01.00]Ünïcode line here';
    const put = await putLyrics(t, bobToken, plain.id, { transcript: lrc });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const api = client();
    // The client's types have lyricsList as an array; the spec (and the wire) has it as an object.
    const lyricsOf = async (id: number) =>
      ((await api.getLyricsBySongId({ id: String(id) })) as unknown as { lyricsList: { structuredLyrics: Record<string, unknown>[] } }).lyricsList
        .structuredLyrics;
    const [synced] = await lyricsOf(plain.id);
    expect(synced).toMatchObject({
      synced: true,
      line: [
        { start: 200, value: 'Hello bright world' },
        { start: 1000, value: 'Ünïcode line here' },
      ],
    });
    expect(synced?.['cueLine']).toBeUndefined();
    const words = [
      { text: 'Hello', start: 0.2, end: 0.4 },
      { text: 'bright', start: 0.4, end: 0.6 },
      { text: 'world', start: 0.6, end: 0.9 },
      { text: 'Ünïcode', start: 1, end: 1.3 },
      { text: 'line', start: 1.3, end: 1.6 },
      { text: 'here', start: 1.6, end: 1.9 },
    ];
    const timed = await putLyrics(t, bobToken, plain.id, { words });
    expect(timed.statusCode, timed.body).toBeLessThan(300);
    const enhanced = (await json(withKey(`/rest/getLyricsBySongId?id=${plain.id}&enhanced=true`))) as Envelope & {
      lyricsList: { structuredLyrics: { kind: string; cueLine: { index: number; value: string; cue: Record<string, unknown>[] }[] }[] };
    };
    const [entry] = enhanced.lyricsList.structuredLyrics;
    expect(entry?.kind).toBe('main');
    expect(entry?.cueLine[1]).toMatchObject({ index: 1, start: 1000, end: 1900, value: 'Ünïcode line here' });
    expect(entry?.cueLine[1]?.cue[0]).toEqual({ start: 1000, end: 1300, byteStart: 0, byteEnd: 8, value: 'Ünïcode' });
    expect(entry?.cueLine[1]?.cue[1]).toMatchObject({ byteStart: 10, byteEnd: 13, value: 'line' });
    const xml = await raw(`/rest/getLyricsBySongId?id=${plain.id}&enhanced=true&apiKey=${apiKey}`);
    expect(xml.text).toContain('<cue start="200" end="400" byteStart="0" byteEnd="4">Hello</cue>');
    expect(xml.text).toContain('<line start="200">Hello bright world</line>');
    const plainText = (await api.getLyrics({ artist: '', title: 'plain' })).lyrics as unknown as { value?: string };
    expect(plainText.value).toBe('Hello bright world\nÜnïcode line here');
    expect((await lyricsOf(flac.id))[0]?.['synced']).toBe(false);
    expect((await json(withKey('/rest/getLyricsBySongId?id=999999'))).error?.code).toBe(70);
  });

  it('keeps playlists round trip in order; another user’s playlist is not found', async () => {
    const api = client();
    const created = (await api.createPlaylist({ name: 'Road trip', songId: [String(flac.id), String(tagged.id)] })).playlist;
    expect(created).toMatchObject({ name: 'Road trip', songCount: 2, owner: 'ada' });
    expect(created.entry?.map((song) => song.id)).toEqual([String(flac.id), String(tagged.id)]);
    await api.updatePlaylist({ playlistId: created.id, name: 'Road trip 2', comment: 'summer', songIndexToRemove: [0], songIdToAdd: [String(plain.id)] });
    const read = (await api.getPlaylist({ id: created.id })).playlist;
    expect(read).toMatchObject({ name: 'Road trip 2', comment: 'summer', songCount: 2 });
    expect(read.entry?.map((song) => song.id)).toEqual([String(tagged.id), String(plain.id)]);
    expect((await api.getPlaylists()).playlists.playlist?.filter((playlist) => !playlist.id.startsWith('smart-')).map((playlist) => playlist.name)).toEqual([
      'Road trip 2',
    ]);
    // The web app sees the same playlist.
    const web = await t.app.inject({ url: `/api/playlists/${created.id}`, headers: bearer(adaToken) });
    expect(web.statusCode).toBe(200);

    for (const call of [
      `/rest/getPlaylist?id=${created.id}`,
      `/rest/updatePlaylist?playlistId=${created.id}&name=x`,
      `/rest/deletePlaylist?id=${created.id}`,
    ]) {
      expect((await json(withKey(call, bobKey))).error?.code, call).toBe(70);
    }
    expect((await json(withKey('/rest/getPlaylist?id=abc'))).error?.code).toBe(70);
    expect((await json(withKey('/rest/createPlaylist'))).error?.code).toBe(10);
    expect((await json(withKey(`/rest/createPlaylist?name=${'x'.repeat(101)}`))).error).toMatchObject({
      code: 0,
      message: 'The playlist name can be at most 100 characters',
    });
    expect((await json(withKey(`/rest/updatePlaylist?playlistId=${created.id}&comment=${'y'.repeat(1001)}`))).error?.code).toBe(0);
    expect((await json(withKey(`/rest/updatePlaylist?playlistId=${created.id}&songIndexToRemove=first`))).error?.code).toBe(0);
    await api.deletePlaylist({ id: created.id });
    expect((await json(withKey(`/rest/getPlaylist?id=${created.id}`))).error?.code).toBe(70);
  });

  it('may be called from web players on other origins (CORS, covers and streams embeddable)', async () => {
    const preflight = await fetch(`${base}/rest/getAlbumList2.view`, {
      method: 'OPTIONS',
      headers: { origin: 'https://player.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    const ping = await fetch(`${base}${withKey('/rest/ping')}`, { headers: { origin: 'https://player.example' } });
    expect(ping.headers.get('access-control-allow-origin')).toBe('*');
    await ping.arrayBuffer();
    const cover = await fetch(`${base}${withKey(`/rest/getCoverArt?id=${tagged.id}`)}`);
    expect(cover.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    await cover.arrayBuffer();
    // The web app's own API keeps its same-origin policy.
    const api = await fetch(`${base}/api/health`);
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
    await api.arrayBuffer();
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/rest'))).toEqual([]);
  });
});
