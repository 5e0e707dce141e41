import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/**
 * Bookmarks, the play queue by index (indexBasedQueue), shares on Encore's share links,
 * getAlbumInfo(2) and tokenInfo: each call in JSON and in XML.
 */
describe.each(engines)('Subsonic bookmarks, queue by index, shares, album info and tokenInfo (%s)', (engine) => {
  let t: TestApp;
  let adaKey: string;
  let bobKey: string;
  let tagged: Song;
  let plain: Song;

  beforeAll(async () => {
    t = await startTestApp(engine);
    const adaToken = await account(t, 'ada');
    const bobToken = await account(t, 'bob');
    const keyOf = async (token: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    adaKey = await keyOf(adaToken);
    bobKey = await keyOf(bobToken);
    tagged = (await upload(t, adaToken, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song;
    plain = (await upload(t, adaToken, fixtures.plainMp3, { fileName: 'plain.mp3' })).song;
  });
  afterAll(async () => t?.close());

  const url = (method: string, query: string, key: string, format: 'json' | 'xml') =>
    `/rest/${method}?${query}${query ? '&' : ''}apiKey=${encodeURIComponent(key)}&v=1.16.1&c=Tester${format === 'json' ? '&f=json' : ''}`;
  /** The JSON answer's `subsonic-response`. */
  const json = async (method: string, query = '', key = adaKey): Promise<Json> => {
    const response = await t.app.inject({ url: url(method, query, key, 'json') });
    expect(response.statusCode).toBe(200);
    return response.json<{ 'subsonic-response': Json }>()['subsonic-response'];
  };
  /** The XML answer's text. */
  const xml = async (method: string, query = '', key = adaKey): Promise<string> => {
    const response = await t.app.inject({ url: url(method, query, key, 'xml') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    return response.body;
  };
  const ok = (answer: Json) => expect(answer['status'], JSON.stringify(answer['error'])).toBe('ok');
  const errorCode = (answer: Json) => (answer['error'] as { code: number } | undefined)?.code;

  it('keeps a bookmark per user and song, replaced by a second save, in JSON and XML', async () => {
    ok(await json('createBookmark', `id=${tagged.id}&position=61000&comment=${encodeURIComponent('Chapter 2')}`));
    expect(await xml('createBookmark', `id=${plain.id}&position=1500`)).toMatch(/<subsonic-response [^>]*status="ok"/);
    // Saving the same song again moves the bookmark, it does not add one.
    ok(await json('createBookmark', `id=${tagged.id}&position=62000&comment=${encodeURIComponent('Chapter 2 & a bit')}`));
    const list = ((await json('getBookmarks'))['bookmarks'] as { bookmark: Json[] }).bookmark;
    expect(list).toHaveLength(2);
    const taggedMark = list.find((mark) => (mark['entry'] as Json)['id'] === String(tagged.id));
    expect(taggedMark).toMatchObject({ position: 62000, username: 'ada', comment: 'Chapter 2 & a bit' });
    expect(typeof taggedMark?.['created']).toBe('string');
    const text = await xml('getBookmarks');
    expect(text).toMatch(/<bookmarks><bookmark position="(62000|1500)" username="ada"/);
    expect(text).toContain('comment="Chapter 2 &amp; a bit"');
    expect(text).toMatch(new RegExp(`<entry id="${tagged.id}"`));
    // Each user has their own.
    expect(((await json('getBookmarks', '', bobKey))['bookmarks'] as { bookmark?: Json[] }).bookmark ?? []).toEqual([]);
    expect(await xml('getBookmarks', '', bobKey)).toMatch(/<bookmarks\/>/);
    // formPost: the arguments in a form body.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/rest/createBookmark.view',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ apiKey: bobKey, v: '1.16.1', c: 'Tester', f: 'json', id: String(plain.id), position: '42' }).toString(),
    });
    expect(posted.json<{ 'subsonic-response': Json }>()['subsonic-response']['status']).toBe('ok');
    expect(((await json('getBookmarks', '', bobKey))['bookmarks'] as { bookmark: Json[] }).bookmark).toMatchObject([{ position: 42, username: 'bob' }]);

    ok(await json('deleteBookmark', `id=${plain.id}`));
    expect(await xml('deleteBookmark', `id=${tagged.id}`)).toMatch(/status="ok"/);
    expect(((await json('getBookmarks'))['bookmarks'] as { bookmark?: Json[] }).bookmark ?? []).toEqual([]);
    // Bob's stays.
    expect(((await json('getBookmarks', '', bobKey))['bookmarks'] as { bookmark: Json[] }).bookmark).toHaveLength(1);
  });

  it('refuses bad bookmarks with clear errors and writes nothing', async () => {
    expect(errorCode(await json('createBookmark', `id=${tagged.id}`))).toBe(10);
    expect(errorCode(await json('createBookmark', `position=10`))).toBe(10);
    expect(errorCode(await json('createBookmark', `id=${tagged.id}&position=-5`))).toBe(0);
    expect(errorCode(await json('createBookmark', `id=${tagged.id}&position=soon`))).toBe(0);
    expect(errorCode(await json('createBookmark', `id=${tagged.id}&position=5&comment=${'x'.repeat(1001)}`))).toBe(0);
    expect(errorCode(await json('createBookmark', 'id=999999&position=5'))).toBe(70);
    expect(errorCode(await json('createBookmark', 'id=al-nothing&position=5'))).toBe(70);
    expect(errorCode(await json('deleteBookmark', `id=${tagged.id}`))).toBe(70);
    expect(await xml('deleteBookmark', `id=${tagged.id}`)).toMatch(/<error code="70" message="Bookmark not found"\/>/);
    expect(((await json('getBookmarks'))['bookmarks'] as { bookmark?: Json[] }).bookmark ?? []).toEqual([]);
  });

  it('saves and reads the play queue by index, a song queued twice kept apart, in JSON and XML', async () => {
    ok(await json('savePlayQueueByIndex', `id=${tagged.id}&id=${plain.id}&id=${tagged.id}&currentIndex=2&position=7000`));
    const queue = (await json('getPlayQueueByIndex'))['playQueueByIndex'] as Json;
    expect(queue).toMatchObject({ currentIndex: 2, position: 7000, username: 'ada', changedBy: 'Tester' });
    expect((queue['entry'] as Json[]).map((entry) => entry['id'])).toEqual([String(tagged.id), String(plain.id), String(tagged.id)]);
    // The id-based queue reads the same queue: its current song is the one at that place.
    expect((await json('getPlayQueue'))['playQueue']).toMatchObject({ current: String(tagged.id), position: 7000 });
    expect(await xml('getPlayQueueByIndex')).toMatch(
      /<playQueueByIndex currentIndex="2" position="7000" username="ada" changed="[^"]+" changedBy="Tester"><entry id=/,
    );
    // XML save; an unknown song is dropped and the index follows the song it pointed at.
    expect(await xml('savePlayQueueByIndex', `id=${plain.id}&id=999999&id=${tagged.id}&currentIndex=2&position=10`)).toMatch(/status="ok"/);
    expect((await json('getPlayQueueByIndex'))['playQueueByIndex']).toMatchObject({ currentIndex: 1, position: 10 });
    // A queue saved by song id answers with the index of that song's first place.
    ok(await json('savePlayQueue', `id=${plain.id}&id=${tagged.id}&id=${tagged.id}&current=${tagged.id}`));
    expect((await json('getPlayQueueByIndex'))['playQueueByIndex']).toMatchObject({ currentIndex: 1 });
    // Bad input: an index outside the queue, missing with songs, not a number; the queue stays.
    expect(errorCode(await json('savePlayQueueByIndex', `id=${plain.id}&currentIndex=1`))).toBe(0);
    expect(errorCode(await json('savePlayQueueByIndex', `id=${plain.id}`))).toBe(10);
    expect(errorCode(await json('savePlayQueueByIndex', `id=${plain.id}&currentIndex=first`))).toBe(0);
    expect(errorCode(await json('savePlayQueueByIndex', `id=${plain.id}&currentIndex=0&position=-1`))).toBe(0);
    expect(((await json('getPlayQueueByIndex'))['playQueueByIndex'] as Json)['entry']).toHaveLength(3);
    // No ids clears the queue: the answer is then empty.
    ok(await json('savePlayQueueByIndex'));
    expect((await json('getPlayQueueByIndex'))['playQueueByIndex']).toBeUndefined();
  });

  it('makes, lists, changes and deletes share links that play without an account, in JSON and XML', async () => {
    const before = Date.now();
    const created = (await json('createShare', `id=${tagged.id}&description=${encodeURIComponent('For you')}`))['shares'] as { share: Json[] };
    expect(created.share).toHaveLength(1);
    const share = created.share[0]!;
    expect(share).toMatchObject({ username: 'ada', description: 'For you', visitCount: 0 });
    expect((share['entry'] as Json[]).map((entry) => entry['id'])).toEqual([String(tagged.id)]);
    // 30 days by default.
    const expires = new Date(String(share['expires'])).getTime();
    expect(expires - before).toBeGreaterThan(29 * 24 * 3600_000);
    expect(expires - before).toBeLessThan(31 * 24 * 3600_000);
    // The public page plays it without an account, and the visit is counted.
    const shareUrl = new URL(String(share['url']));
    expect(shareUrl.pathname).toMatch(/^\/share\/[\w-]{20,}$/);
    const page = await t.app.inject({ url: `/api${shareUrl.pathname}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ sharedBy: 'ada' });
    const listed = ((await json('getShares'))['shares'] as { share: Json[] }).share;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: share['id'], url: share['url'], visitCount: 1 });
    expect(typeof listed[0]?.['lastVisited']).toBe('string');

    // XML: created with an expiry, then listed.
    const inAWeek = Date.now() + 7 * 24 * 3600_000;
    const createdXml = await xml('createShare', `id=${plain.id}&expires=${inAWeek}`);
    expect(createdXml).toMatch(
      /<shares><share id="\d+" url="http[^"]+\/share\/[^"]+" username="ada" created="[^"]+" expires="[^"]+" visitCount="0"><entry id=/,
    );
    const listedXml = await xml('getShares');
    expect(listedXml.match(/<share /g)).toHaveLength(2);
    // Bob sees none of Ada's, and cannot change or delete them (as if they did not exist).
    expect(((await json('getShares', '', bobKey))['shares'] as { share?: Json[] }).share ?? []).toEqual([]);
    expect(errorCode(await json('updateShare', `id=${String(share['id'])}&description=Mine`, bobKey))).toBe(70);
    expect(errorCode(await json('deleteShare', `id=${String(share['id'])}`, bobKey))).toBe(70);

    ok(await json('updateShare', `id=${String(share['id'])}&description=${encodeURIComponent('Changed')}&expires=${inAWeek}`));
    const updated = (((await json('getShares'))['shares'] as { share: Json[] }).share ?? []).find((item) => item['id'] === share['id']);
    expect(updated).toMatchObject({ description: 'Changed' });
    // The date the app sent, as stored (PostgreSQL keeps microseconds, so it comes back to the millisecond).
    expect(new Date(String(updated?.['expires'])).getTime()).toBe(inAWeek);
    // expires=0 ("never"): the longest a link lives, a year.
    expect(await xml('updateShare', `id=${String(share['id'])}&expires=0`)).toMatch(/status="ok"/);
    const never = (((await json('getShares'))['shares'] as { share: Json[] }).share ?? []).find((item) => item['id'] === share['id']);
    expect(new Date(String(never?.['expires'])).getTime() - Date.now()).toBeGreaterThan(364 * 24 * 3600_000);

    ok(await json('deleteShare', `id=${String(share['id'])}`));
    expect((await t.app.inject({ url: `/api${shareUrl.pathname}` })).statusCode).toBe(404);
    const otherId = /<share id="(\d+)"/.exec(createdXml)?.[1];
    expect(await xml('deleteShare', `id=${otherId}`)).toMatch(/status="ok"/);
    expect(await xml('getShares')).toMatch(/<shares\/>/);
  });

  it('refuses bad shares with clear errors and makes none', async () => {
    expect(errorCode(await json('createShare'))).toBe(10);
    expect(errorCode(await json('createShare', 'id=999999'))).toBe(70);
    expect(errorCode(await json('createShare', `id=${tagged.id}&id=${plain.id}`))).toBe(0);
    expect(((await json('createShare', `id=${tagged.id}&id=${plain.id}`))['error'] as Json)['message']).toMatch(/one song/);
    expect(errorCode(await json('createShare', `id=al-whatever`))).toBe(0);
    expect(errorCode(await json('createShare', `id=${tagged.id}&expires=${Date.now() - 1000}`))).toBe(0);
    expect(errorCode(await json('createShare', `id=${tagged.id}&expires=${Date.now() + 400 * 24 * 3600_000}`))).toBe(0);
    expect(errorCode(await json('createShare', `id=${tagged.id}&expires=tomorrow`))).toBe(0);
    expect(errorCode(await json('createShare', `id=${tagged.id}&description=${'x'.repeat(1001)}`))).toBe(0);
    expect(errorCode(await json('updateShare', 'id=abc'))).toBe(70);
    expect(errorCode(await json('deleteShare', 'id=424242'))).toBe(70);
    expect(await xml('deleteShare')).toMatch(/<error code="10" /);
    expect(((await json('getShares'))['shares'] as { share?: Json[] }).share ?? []).toEqual([]);
  });

  it("answers getAlbumInfo and getAlbumInfo2 for an album or a song's album, in JSON and XML", async () => {
    const song = (await json('getSong', `id=${tagged.id}`))['song'] as Json;
    const albumId = String(song['albumId']);
    expect((await json('getAlbumInfo', `id=${albumId}`))['albumInfo']).toEqual({ notes: '' });
    expect((await json('getAlbumInfo2', `id=${tagged.id}`))['albumInfo']).toEqual({ notes: '' });
    expect(await xml('getAlbumInfo', `id=${tagged.id}`)).toMatch(/<albumInfo><notes><\/notes><\/albumInfo>|<albumInfo notes=""\/>/);
    expect(await xml('getAlbumInfo2', `id=${albumId}`)).toMatch(/<albumInfo[ />]/);
    expect(errorCode(await json('getAlbumInfo2', 'id=al-nothing-here'))).toBe(70);
    expect(errorCode(await json('getAlbumInfo', 'id=999999'))).toBe(70);
    expect(errorCode(await json('getAlbumInfo'))).toBe(10);
  });

  it("answers tokenInfo with the key's user, in JSON and XML", async () => {
    expect((await json('tokenInfo'))['tokenInfo']).toEqual({ username: 'ada' });
    expect(await xml('tokenInfo', '', bobKey)).toMatch(/<tokenInfo username="bob"\/>/);
    expect(errorCode(await json('tokenInfo', '', 'not-a-key'))).toBe(44);
  });
});
