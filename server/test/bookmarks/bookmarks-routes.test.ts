import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

interface Bookmark {
  songId: number;
  positionMs: number;
  comment: string | null;
  changedAt: string;
}

/** The web player's bookmarks (issue 41): each user's own, the same as Subsonic's. */
describe.each(engines)('bookmarks over the web API (%s)', (engine) => {
  let t: TestApp;
  let ada: string;
  let bob: string;
  let adaKey: string;
  let song: Song;

  beforeAll(async () => {
    t = await startTestApp(engine);
    ada = await account(t, 'ada');
    bob = await account(t, 'bob');
    adaKey = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(ada), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    song = (await upload(t, ada, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
  });
  afterAll(async () => t?.close());

  const call = (token: string, method: 'GET' | 'PUT' | 'DELETE', songId: number | string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/bookmarks/${songId}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const bookmarkOf = async (token: string, songId = song.id) => (await call(token, 'GET', songId)).json<{ bookmark: Bookmark | null }>().bookmark;
  const subsonicBookmarks = async () =>
    (await t.app.inject({ url: `/rest/getBookmarks?apiKey=${encodeURIComponent(adaKey)}&v=1.16.1&c=Tester&f=json` })).json<{
      'subsonic-response': { bookmarks: { bookmark?: { position: number; entry: { id: string } }[] } };
    }>()['subsonic-response'].bookmarks.bookmark ?? [];

  it("saves, replaces and removes the caller's own bookmark, which Subsonic clients share", async () => {
    expect(await bookmarkOf(ada)).toBeNull();
    const saved = await call(ada, 'PUT', song.id, { positionMs: 754_000 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ songId: song.id, positionMs: 754_000, comment: null });
    expect(await bookmarkOf(ada)).toMatchObject({ songId: song.id, positionMs: 754_000 });
    expect(await bookmarkOf(bob)).toBeNull();

    // The same bookmark as Subsonic's, both ways.
    expect(await subsonicBookmarks()).toEqual([expect.objectContaining({ position: 754_000, entry: expect.objectContaining({ id: String(song.id) }) })]);
    await t.app.inject({ url: `/rest/createBookmark?id=${song.id}&position=812000&apiKey=${encodeURIComponent(adaKey)}&v=1.16.1&c=Tester&f=json` });
    expect(await bookmarkOf(ada)).toMatchObject({ positionMs: 812_000 });

    expect((await call(ada, 'PUT', song.id, { positionMs: 900_500 })).json()).toMatchObject({ positionMs: 900_500 });
    expect((await call(ada, 'DELETE', song.id)).statusCode).toBe(204);
    expect(await bookmarkOf(ada)).toBeNull();
    expect(await subsonicBookmarks()).toEqual([]);
    // Finishing a song that has no bookmark is no error.
    expect((await call(ada, 'DELETE', song.id)).statusCode).toBe(204);
  });

  it('refuses bad positions, bad and unknown songs, and guests, with clear messages', async () => {
    const refused = async (payload: unknown, songId: number | string = song.id) => {
      const answer = await call(ada, 'PUT', songId, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      return answer.json<{ message: string }>().message;
    };
    const positionMessage = 'A bookmark position is a whole number of milliseconds from 0 to a day';
    expect(await refused({ positionMs: -1 })).toBe(positionMessage);
    expect(await refused({ positionMs: 1.5 })).toBe(positionMessage);
    expect(await refused({ positionMs: '1000' })).toBe(positionMessage);
    expect(await refused({ positionMs: 24 * 3600_000 + 1 })).toBe(positionMessage);
    expect(await refused({})).toBe(positionMessage);
    expect(await refused({ positionMs: 1000 }, 'abc')).toMatch(/song id/);
    const unknown = await call(ada, 'PUT', 999_999, { positionMs: 1000 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Song not found' });
    expect((await t.app.inject({ method: 'GET', url: `/api/bookmarks/${song.id}` })).statusCode).toBe(401);
    expect(await bookmarkOf(ada)).toBeNull();
  });
});
