import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubsonicAPI } from 'subsonic-api';
import type { Song } from '@encore/common/library.contract';
import type { PlayQueue } from '@encore/common/listening.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  status: 'ok' | 'failed';
  error?: { code: number; message: string };
  [key: string]: unknown;
}

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(engines)('Subsonic annotation, now playing and the play queue (%s)', (engine) => {
  let t: TestApp;
  let base: string;
  let adaToken: string;
  let adaKey: string;
  let bobKey: string;
  let tagged: Song;
  let plain: Song;
  let flac: Song;

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    adaToken = await account(t, 'ada');
    const bobToken = await account(t, 'bob');
    const keyOf = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    adaKey = await keyOf(adaToken);
    bobKey = await keyOf(bobToken);
    tagged = (await upload(t, adaToken, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song;
    plain = (await upload(t, adaToken, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
    flac = (await upload(t, bobToken, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song;
  });
  afterAll(async () => t?.close());

  const ada = () => new SubsonicAPI({ url: base, auth: { apiKey: adaKey } });
  const bob = () => new SubsonicAPI({ url: base, auth: { apiKey: bobKey } });
  const call = async (query: string, key = adaKey): Promise<Envelope> => {
    const response = await fetch(`${base}/rest/${query}${query.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(key)}&v=1.16.1&c=Tester&f=json`);
    expect(response.status).toBe(200);
    return (JSON.parse(await response.text()) as { 'subsonic-response': Envelope })['subsonic-response'];
  };

  it('counts plays with submission=true, sets last played, and keeps each user their own counts', async () => {
    const before = Date.now();
    await ada().scrobble({ id: String(tagged.id), submission: true });
    await ada().scrobble({ id: String(tagged.id), submission: true, time: before - 60_000 });
    await ada().scrobble({ id: String(plain.id) });
    const top = (await ada().getTopSongs({ artist: TAGGED.albumArtist })).topSongs.song ?? [];
    expect(top.map((song) => song.id)).toEqual([String(tagged.id)]);
    expect(top[0]).toMatchObject({ playCount: 2 });
    // Last played moves forward only: the late scrobble of an earlier play leaves the newer date.
    expect(new Date(String(top[0]?.played)).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // The track artist names the song too.
    expect((await ada().getTopSongs({ artist: TAGGED.artist.toUpperCase() })).topSongs.song?.map((song) => song.id)).toEqual([String(tagged.id)]);
    // Bob has played nothing: no top songs of his.
    expect((await bob().getTopSongs({ artist: TAGGED.albumArtist })).topSongs.song ?? []).toEqual([]);
    expect((await ada().getTopSongs({ artist: 'Nobody Of That Name' })).topSongs.song ?? []).toEqual([]);
  });

  it('lists what is playing now (submission=false) for every user, with the user, the client and minutes ago', async () => {
    await ada().scrobble({ id: String(flac.id), submission: false });
    const entries = (await bob().getNowPlaying()).nowPlaying.entry ?? [];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: String(flac.id), username: 'ada', minutesAgo: 0 });
    expect(typeof entries[0]?.playerName).toBe('string');
    // Playing another song replaces it; the play is not counted.
    await call(`scrobble?id=${tagged.id}&submission=false`);
    const now = (await ada().getNowPlaying()).nowPlaying.entry ?? [];
    expect(now.map((entry) => [entry.id, entry.playerName])).toEqual([[String(tagged.id), 'Tester']]);
    expect(now[0]).toMatchObject({ playCount: 2 });
  });

  it('rates songs with setRating, 0 clearing, and shows the rating as userRating', async () => {
    await ada().setRating({ id: String(tagged.id), rating: 4 });
    expect((await ada().getTopSongs({ artist: TAGGED.albumArtist })).topSongs.song?.[0]).toMatchObject({ userRating: 4 });
    await ada().setRating({ id: String(tagged.id), rating: 5 });
    expect((await ada().getTopSongs({ artist: TAGGED.albumArtist })).topSongs.song?.[0]).toMatchObject({ userRating: 5 });
    await ada().setRating({ id: String(tagged.id), rating: 0 });
    expect((await ada().getTopSongs({ artist: TAGGED.albumArtist })).topSongs.song?.[0]?.userRating).toBeUndefined();
  });

  it('saves the play queue and answers it in order with the current song and position, the same queue as the web player', async () => {
    expect((await bob().getPlayQueue()).playQueue).toBeUndefined();
    await ada().savePlayQueue({ id: [String(plain.id), String(flac.id), String(tagged.id)], current: String(flac.id), position: 12_345 });
    const queue = (await ada().getPlayQueue()).playQueue;
    expect(queue?.entry?.map((song) => song.id)).toEqual([String(plain.id), String(flac.id), String(tagged.id)]);
    expect(queue).toMatchObject({ current: String(flac.id), position: 12_345, username: 'ada', changedBy: 'subsonic-api' });
    const web = await t.app.inject({ url: '/api/player/queue', headers: bearer(adaToken) });
    expect(web.json<PlayQueue>()).toEqual({ songIds: [plain.id, flac.id, tagged.id], current: flac.id, positionSeconds: 12.345 });
    // The web player's save is what the phone reads next.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/player/queue',
      headers: bearer(adaToken),
      payload: { songIds: [tagged.id, plain.id], current: plain.id, positionSeconds: 3.5 },
    });
    expect(put.statusCode).toBe(200);
    const after = (await ada().getPlayQueue()).playQueue;
    expect(after?.entry?.map((song) => song.id)).toEqual([String(tagged.id), String(plain.id)]);
    expect(after).toMatchObject({ current: String(plain.id), position: 3500, changedBy: 'web' });
    expect((await bob().getPlayQueue()).playQueue).toBeUndefined();
    // Unknown songs are dropped; no id clears the queue.
    await call(`savePlayQueue?id=${tagged.id}&id=999999&current=${tagged.id}&position=10`);
    expect((await ada().getPlayQueue()).playQueue?.entry?.map((song) => song.id)).toEqual([String(tagged.id)]);
    await call('savePlayQueue');
    expect((await ada().getPlayQueue()).playQueue).toBeUndefined();
  });

  it('answers bad input with Subsonic error codes', async () => {
    const cases: [string, number][] = [
      ['scrobble', 10],
      ['scrobble?id=abc', 70],
      ['scrobble?id=999999', 70],
      [`scrobble?id=al-x`, 70],
      [`scrobble?id=${tagged.id}&time=yesterday`, 0],
      [`scrobble?id=${tagged.id}&time=99999999999999`, 0],
      ['setRating?rating=3', 10],
      [`setRating?id=${tagged.id}`, 10],
      [`setRating?id=${tagged.id}&rating=6`, 0],
      [`setRating?id=${tagged.id}&rating=-1`, 0],
      [`setRating?id=${tagged.id}&rating=two`, 0],
      ['setRating?id=999999&rating=3', 70],
      ['savePlayQueue?id=abc', 70],
      [`savePlayQueue?id=${tagged.id}&current=abc`, 70],
      [`savePlayQueue?id=${tagged.id}&position=-5`, 0],
      [`savePlayQueue?id=${tagged.id}&position=lots`, 0],
      ['getTopSongs', 10],
      [`getTopSongs?artist=x&count=many`, 0],
    ];
    for (const [query, code] of cases) expect((await call(query)).error?.code, query).toBe(code);
    const tooLong = new URLSearchParams(Array.from({ length: 5001 }, (): [string, string] => ['id', String(tagged.id)]));
    const response = await fetch(`${base}/rest/savePlayQueue?apiKey=${encodeURIComponent(adaKey)}&f=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tooLong.toString(),
    });
    expect((JSON.parse(await response.text()) as { 'subsonic-response': Envelope })['subsonic-response'].error?.code).toBe(0);
  });
});
