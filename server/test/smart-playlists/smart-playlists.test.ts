import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/features/auth/auth.schema.js';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { songLikes, songs } from '../../src/features/library/library.schema.js';
import { songPlays } from '../../src/features/listening/listening.schema.js';
import { smartPlaylists } from '../../src/features/smart-playlists/smart-playlists.schema.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface Smart {
  id: number;
  name: string;
  comment: string | null;
  rules: Record<string, unknown>;
  source: string;
  songCount: number;
}
interface Page {
  total: number;
  songs: { id: number; displayName: string; isLiked: boolean }[];
}

const DAY = 24 * 3600 * 1000;

describe.each(engines)('smart playlists on %s', (engine) => {
  let t: TestApp;
  let ada: string;
  let bob: string;
  let adaId: number;
  let bobId: number;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    ada = await account(t, 'ada');
    bob = await account(t, 'bob');
    const db = t.app.encore.platform.database.db;
    const userId = async (name: string) => (await db.select().from(users).where(eq(users.userName, name)))[0]?.id ?? 0;
    adaId = await userId('ada');
    bobId = await userId('bob');
    const now = Date.now();
    const rows = [
      {
        key: 'blue',
        title: 'Blue Train',
        artist: 'John Coltrane',
        album: 'Blue Train',
        genre: 'Jazz',
        year: 1957,
        durationSeconds: 640,
        bitrate: 1000,
        fileName: 'Blue Train.flac',
        uploadedAt: new Date('2020-01-15T12:00:00Z'),
      },
      {
        key: 'giant',
        title: 'Giant Steps',
        artist: 'John Coltrane',
        album: 'Giant Steps',
        genre: 'Jazz',
        year: 1960,
        durationSeconds: 290,
        bitrate: 320,
        fileName: 'giant.mp3',
        uploadedAt: new Date(now - 10 * DAY),
      },
      {
        key: 'teen',
        title: 'Smells Like Teen Spirit',
        artist: 'Nirvana',
        album: 'Nevermind',
        genre: 'Rock',
        year: 1991,
        durationSeconds: 301,
        bitrate: 256,
        fileName: 'teen.mp3',
        uploadedAt: new Date(now - 100 * DAY),
        transcript: 'Load up on guns',
      },
      {
        key: 'what',
        title: 'So What',
        artist: 'Miles Davis',
        album: 'Kind of Blue',
        genre: 'Jazz',
        year: 1959,
        durationSeconds: 562,
        bitrate: 320,
        fileName: 'so-what.mp3',
        uploadedAt: new Date('2019-06-01T12:00:00Z'),
      },
      {
        key: 'pure',
        title: '100%_Pure',
        artist: null,
        album: null,
        genre: null,
        year: null,
        durationSeconds: 100,
        bitrate: 128,
        fileName: 'pure.ogg',
        uploadedAt: new Date(now - DAY),
      },
    ];
    for (const { key, ...row } of rows) {
      const [inserted] = await db
        .insert(songs)
        .values({ ownerId: adaId, displayName: row.title, fileType: 'audio/mpeg', storageKey: `uploads/smart-${key}`, size: 1000, ...row })
        .returning({ id: songs.id });
      id[key] = inserted?.id ?? 0;
    }
    const features = (bpm: number, energy: number, vocalPresence: number, key: string, mode: string) => ({
      bpm,
      energy,
      vocalPresence,
      key,
      mode,
      brightness: energy / 2,
      danceability: 0.5,
      loudnessLufs: -10 - energy * 4,
    });
    await db.insert(songAnalyses).values([
      { songId: id['blue'] ?? 0, status: 'analysed', features: features(120, 0.4, 0.1, 'A', 'minor'), analyserVersion: 2 },
      { songId: id['teen'] ?? 0, status: 'analysed', features: features(117, 0.9, 0.95, 'F', 'minor'), analyserVersion: 2 },
      { songId: id['what'] ?? 0, status: 'analysed', features: features(136, 0.3, 0.05, 'D', 'major'), analyserVersion: 2 },
    ]);
    // Ada played Blue Train 5 times yesterday and So What once 300 days ago, and likes Giant Steps and So What; Bob played Giant Steps.
    await db.insert(songPlays).values([
      { userId: adaId, songId: id['blue'] ?? 0, playCount: 5, lastPlayedAt: new Date(now - DAY) },
      { userId: adaId, songId: id['what'] ?? 0, playCount: 1, lastPlayedAt: new Date(now - 300 * DAY) },
      { userId: bobId, songId: id['giant'] ?? 0, playCount: 2, lastPlayedAt: new Date(now - 2 * DAY) },
    ]);
    await db.insert(songLikes).values([
      { userId: adaId, songId: id['giant'] ?? 0 },
      { userId: adaId, songId: id['what'] ?? 0 },
    ]);
  });
  afterAll(async () => t?.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as string } : {}) });

  /** The keys of the songs the rules match for the user, in the playlist's order. */
  async function matches(token: string, rules: unknown): Promise<string[]> {
    const response = await call(token, 'POST', '/api/smart-playlists/preview', { rules, limit: 500 });
    expect(response.statusCode, response.body).toBe(200);
    const byId = new Map(Object.entries(id).map(([key, value]) => [value, key]));
    return response.json<Page>().songs.map((song) => byId.get(song.id) ?? `#${song.id}`);
  }
  const sorted = (keys: string[]) => [...keys].sort();

  it('matches each text operator, without regard to case, and literally (% and _ are not wildcards)', async () => {
    expect(sorted(await matches(ada, { all: [{ is: { artist: 'john coltrane' } }] }))).toEqual(['blue', 'giant']);
    expect(sorted(await matches(ada, { all: [{ isNot: { genre: 'Jazz' } }] }))).toEqual(['pure', 'teen']);
    expect(sorted(await matches(ada, { all: [{ contains: { title: 'TRAIN' } }] }))).toEqual(['blue']);
    expect(sorted(await matches(ada, { all: [{ notContains: { title: 'i' } }] }))).toEqual(['pure', 'what']);
    expect(sorted(await matches(ada, { all: [{ startsWith: { album: 'kind' } }] }))).toEqual(['what']);
    expect(sorted(await matches(ada, { all: [{ endsWith: { fileType: 'ogg' } }] }))).toEqual(['pure']);
    expect(await matches(ada, { all: [{ contains: { title: '%_' } }] })).toEqual(['pure']);
    expect(await matches(ada, { all: [{ contains: { title: '_' } }] })).toEqual(['pure']);
    expect(await matches(ada, { all: [{ is: { fileType: 'FLAC' } }] })).toEqual(['blue']);
  });

  it('matches numbers (is, isNot, gt, lt, inTheRange), booleans and the analysis', async () => {
    expect(await matches(ada, { all: [{ is: { year: 1959 } }] })).toEqual(['what']);
    expect(sorted(await matches(ada, { all: [{ isNot: { year: 1959 } }] }))).toEqual(['blue', 'giant', 'pure', 'teen']);
    expect(sorted(await matches(ada, { all: [{ gt: { duration: 500 } }] }))).toEqual(['blue', 'what']);
    expect(sorted(await matches(ada, { all: [{ lt: { bitrate: 300 } }] }))).toEqual(['pure', 'teen']);
    expect(sorted(await matches(ada, { all: [{ inTheRange: { year: [1960, 1957] } }] }))).toEqual(['blue', 'giant', 'what']);
    expect(sorted(await matches(ada, { all: [{ inTheRange: { bpm: [115, 125] } }] }))).toEqual(['blue', 'teen']);
    expect(await matches(ada, { all: [{ gt: { energy: 0.5 } }] })).toEqual(['teen']);
    expect(await matches(ada, { all: [{ is: { vocals: true } }] })).toEqual(['teen']);
    expect(sorted(await matches(ada, { all: [{ is: { instrumental: true } }] }))).toEqual(['blue', 'what']);
    expect(await matches(ada, { all: [{ is: { mode: 'major' } }, { is: { key: 'd' } }] })).toEqual(['what']);
    expect(await matches(ada, { all: [{ lt: { loudness: -13 } }] })).toEqual(['teen']);
    expect(await matches(ada, { all: [{ is: { hasLyrics: true } }] })).toEqual(['teen']);
    expect(await matches(ada, { all: [{ contains: { lyrics: 'guns' } }] })).toEqual(['teen']);
    // Navidrome writes booleans as "true" sometimes; a number string is a number.
    expect(sorted(await matches(ada, { all: [{ is: { loved: 'true' } }, { gt: { year: '1958' } }] }))).toEqual(['giant', 'what']);
  });

  it('matches dates: inTheLast, notInTheLast (never counts as long ago), before, after, is, inTheRange', async () => {
    expect(sorted(await matches(ada, { all: [{ inTheLast: { dateAdded: 30 } }] }))).toEqual(['giant', 'pure']);
    expect(sorted(await matches(ada, { all: [{ notInTheLast: { dateAdded: 30 } }] }))).toEqual(['blue', 'teen', 'what']);
    expect(await matches(ada, { all: [{ before: { dateAdded: '2020-01-01' } }] })).toEqual(['what']);
    expect(sorted(await matches(ada, { all: [{ after: { dateAdded: '2019-06-01' } }] }))).not.toContain('what');
    expect(await matches(ada, { all: [{ is: { dateAdded: '2020-01-15' } }] })).toEqual(['blue']);
    expect(sorted(await matches(ada, { all: [{ inTheRange: { dateAdded: ['2019-01-01', '2020-12-31'] } }] }))).toEqual(['blue', 'what']);
    expect(await matches(ada, { all: [{ inTheLast: { lastPlayed: 30 } }] })).toEqual(['blue']);
    expect(sorted(await matches(ada, { all: [{ notInTheLast: { lastPlayed: 30 } }] }))).toEqual(['giant', 'pure', 'teen', 'what']);
  });

  it('counts each user’s own plays and likes', async () => {
    expect(sorted(await matches(ada, { all: [{ gt: { playCount: 0 } }] }))).toEqual(['blue', 'what']);
    expect(await matches(bob, { all: [{ gt: { playCount: 0 } }] })).toEqual(['giant']);
    expect(sorted(await matches(ada, { all: [{ is: { loved: true } }] }))).toEqual(['giant', 'what']);
    expect(await matches(bob, { all: [{ is: { loved: true } }] })).toEqual([]);
    // The preset "Liked but not played for 6 months": So What was played 300 days ago, Giant Steps never.
    expect(sorted(await matches(ada, { all: [{ is: { loved: true } }, { notInTheLast: { lastPlayed: 182 } }] }))).toEqual(['giant', 'what']);
    expect(await matches(ada, { all: [{ is: { loved: true } }, { inTheLast: { lastPlayed: 365 } }] })).toEqual(['what']);
  });

  it('nests all and any groups, and sorts by fields (with - and order) and at random', async () => {
    const rules = {
      any: [{ all: [{ is: { genre: 'jazz' } }, { any: [{ lt: { year: 1958 } }, { gt: { year: 1959 } }] }] }, { is: { artist: 'Nirvana' } }],
      sort: 'year',
      order: 'desc',
    };
    expect(await matches(ada, rules)).toEqual(['teen', 'giant', 'blue']);
    expect(await matches(ada, { ...rules, sort: '-playCount,title', order: 'asc' })).toEqual(['blue', 'giant', 'teen']);
    expect(sorted(await matches(ada, { ...rules, sort: 'random' }))).toEqual(['blue', 'giant', 'teen']);
    // Several fields under one operator must all hold.
    expect(await matches(ada, { any: [{ is: { genre: 'Jazz', year: 1960 } }] })).toEqual(['giant']);
  });

  it('creates, reads, changes, pages and deletes a smart playlist; a new matching song joins; another user’s is not found', async () => {
    const created = await call(ada, 'POST', '/api/smart-playlists', { name: 'Jazz', rules: { all: [{ is: { genre: 'Jazz' } }], sort: 'year', limit: 2 } });
    expect(created.statusCode, created.body).toBe(201);
    const smart = created.json<Smart>();
    expect(smart).toMatchObject({
      name: 'Jazz',
      comment: null,
      source: 'user',
      songCount: 2,
      rules: { all: [{ is: { genre: 'Jazz' } }], sort: 'year', limit: 2 },
    });

    const first = (await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs?limit=1`)).json<Page>();
    expect(first).toMatchObject({ total: 2, songs: [{ id: id['blue'] }] });
    const second = (await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs?limit=1&offset=1`)).json<Page>();
    expect(second.songs.map((song) => song.id)).toEqual([id['what']]);
    // The rules' limit ends the list: nothing after the second song.
    expect((await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs?offset=2`)).json<Page>()).toEqual({ total: 2, songs: [] });

    const changed = await call(ada, 'PUT', `/api/smart-playlists/${smart.id}`, {
      name: 'All jazz',
      comment: 'Every jazz song',
      rules: { all: [{ is: { genre: 'Jazz' } }], sort: '-year' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Smart>()).toMatchObject({ name: 'All jazz', comment: 'Every jazz song', songCount: 3 });

    const db = t.app.encore.platform.database.db;
    const [added] = await db
      .insert(songs)
      .values({
        ownerId: bobId,
        displayName: 'Naima',
        title: 'Naima',
        genre: 'jazz',
        year: 1961,
        fileName: 'naima.mp3',
        fileType: 'audio/mpeg',
        storageKey: 'uploads/smart-naima',
        size: 1,
      })
      .returning({ id: songs.id });
    const page = (await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs`)).json<Page>();
    expect(page.total).toBe(4);
    expect(page.songs[0]).toMatchObject({ id: added?.id, displayName: 'Naima' });

    // A song whose file went missing leaves; bob cannot see ada's playlist.
    await db
      .update(songs)
      .set({ missingSince: new Date() })
      .where(eq(songs.id, added?.id ?? 0));
    expect((await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs`)).json<Page>().total).toBe(3);
    await db.delete(songs).where(eq(songs.id, added?.id ?? 0));
    for (const [method, url] of [
      ['GET', `/api/smart-playlists/${smart.id}`],
      ['GET', `/api/smart-playlists/${smart.id}/songs`],
      ['DELETE', `/api/smart-playlists/${smart.id}`],
    ] as const) {
      expect((await call(bob, method, url)).statusCode).toBe(404);
    }
    expect((await call(bob, 'PUT', `/api/smart-playlists/${smart.id}`, { name: 'Mine', rules: { all: [{ is: { loved: true } }] } })).statusCode).toBe(404);

    expect((await call(ada, 'DELETE', `/api/smart-playlists/${smart.id}`)).statusCode).toBe(204);
    expect((await call(ada, 'GET', `/api/smart-playlists/${smart.id}`)).statusCode).toBe(404);
  });

  it('gives a new user the four presets once, computed for them', async () => {
    const carol = await account(t, 'carol');
    const list = (await call(carol, 'GET', '/api/smart-playlists')).json<Smart[]>();
    expect(list.map((smart) => [smart.name, smart.source])).toEqual([
      ['Recently added', 'preset'],
      ['Never played', 'preset'],
      ['Liked but not played for 6 months', 'preset'],
      ['Most played this year', 'preset'],
    ]);
    // Carol has played nothing: every song is never played; two were added in the last 30 days.
    expect(list.map((smart) => smart.songCount)).toEqual([2, 5, 0, 0]);
    const [recent] = list;
    expect((await call(carol, 'DELETE', `/api/smart-playlists/${recent?.id}`)).statusCode).toBe(204);
    const again = (await call(carol, 'GET', '/api/smart-playlists')).json<Smart[]>();
    expect(again.map((smart) => smart.name)).not.toContain('Recently added');
    expect(again).toHaveLength(3);
  });

  it('refuses bad rules with a 400 that names the problem, and saves nothing', async () => {
    let nested: Record<string, unknown> = { is: { genre: 'Jazz' } };
    for (let level = 0; level < 12; level++) nested = { all: [nested] };
    const huge = { all: [{ contains: { title: 'x' } }], padding: 'y'.repeat(5 * 1024 * 1024) };
    const cases: [unknown, string][] = [
      [{ all: [{ is: { rating2: 3 } }] }, 'Unknown field "rating2"'],
      [{ all: [{ matches: { title: 'x' } }] }, 'Unknown operator "matches"'],
      [{ all: [{ gt: { year: 'nineteen' } }] }, 'The value of "year" must be a number'],
      [{ all: [{ is: { loved: 'yes' } }] }, 'The value of "loved" must be true or false'],
      [{ all: [{ contains: { year: 19 } }] }, 'The field "year" does not take "contains"'],
      [{ all: [{ before: { dateAdded: '2020-13-01' } }] }, 'The value of "dateAdded" must be a date written YYYY-MM-DD'],
      [{ all: [{ inTheRange: { year: [1990] } }] }, '"inTheRange" of "year" must be a list of two values'],
      [{ all: [{ inTheLast: { lastPlayed: -3 } }] }, '"inTheLast" of "lastPlayed" must be a whole number of days'],
      [{ all: [{ is: { genre: 'Jazz' } }], any: [] }, 'both "all" and "any"'],
      [{ sort: 'title' }, 'The rules need "all" or "any"'],
      [{ all: [] }, 'at least one condition'],
      [{ all: [{ is: { genre: 'Jazz' } }], sort: 'colour' }, 'Unknown field "colour" in "sort"'],
      [{ all: [{ is: { genre: 'Jazz' } }], limit: -1 }, '"limit" must be a whole number'],
      [nested, 'The rules nest groups too deep'],
      [huge, 'The rules can be at most 64 KB'],
      ['rock', 'The rules must be an object'],
    ];
    for (const [rules, message] of cases) {
      const response = await call(ada, 'POST', '/api/smart-playlists', { name: 'Bad', rules });
      expect(response.statusCode, JSON.stringify(rules).slice(0, 100)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    const db = t.app.encore.platform.database.db;
    expect(await db.select().from(smartPlaylists).where(eq(smartPlaylists.name, 'Bad'))).toEqual([]);
    expect((await call(ada, 'POST', '/api/smart-playlists', { rules: { all: [{ is: { genre: 'Jazz' } }] } })).statusCode).toBe(400);
  });

  it('imports a Navidrome .nsp file (comments, any case, its name) and exports it back; M3U8 lists the songs', async () => {
    const nsp = `/*
  Top Level Comment
*/
{
  "name": "Coltrane // loved",
  "comment": "From Navidrome",
  "public": true,
  "all": [
    // An inline comment
    {"is": {"ARTIST": "John Coltrane"}},
    {"inTheRange": {"year": [1950, 1965]}}
  ],
  "sort": "year",
  "order": "desc",
  "limit": 100
}`;
    const imported = await call(ada, 'POST', '/api/smart-playlists/import', nsp, { 'content-type': 'text/plain' });
    expect(imported.statusCode, imported.body).toBe(201);
    const smart = imported.json<Smart>();
    expect(smart).toMatchObject({ name: 'Coltrane // loved', comment: 'From Navidrome', songCount: 2 });
    expect((await call(ada, 'GET', `/api/smart-playlists/${smart.id}/songs`)).json<Page>().songs.map((song) => song.id)).toEqual([id['giant'], id['blue']]);

    const exported = await call(ada, 'GET', `/api/smart-playlists/${smart.id}/nsp`);
    expect(exported.headers['content-disposition']).toContain('.nsp');
    expect(JSON.parse(exported.body)).toEqual({
      name: 'Coltrane // loved',
      comment: 'From Navidrome',
      all: [{ is: { artist: 'John Coltrane' } }, { inTheRange: { year: [1950, 1965] } }],
      sort: '-year',
      limit: 100,
    });
    // The export imports again as JSON.
    const again = await call(ada, 'POST', '/api/smart-playlists/import', JSON.parse(exported.body));
    expect(again.json<Smart>()).toMatchObject({ name: 'Coltrane // loved', songCount: 2 });

    const m3u8 = await call(ada, 'GET', `/api/smart-playlists/${smart.id}/m3u8`);
    expect(m3u8.headers['content-type']).toContain('audio/x-mpegurl');
    expect(m3u8.body).toMatch(/^#EXTM3U\n#PLAYLIST:Coltrane \/\/ loved\n#EXTINF:290,John Coltrane - Giant Steps\nhttp/);

    const broken = await call(ada, 'POST', '/api/smart-playlists/import', '{"name": "x", "all": [', { 'content-type': 'text/plain' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ message: 'This is not a smart playlist file (.nsp): its JSON cannot be read' });
    const unknown = await call(ada, 'POST', '/api/smart-playlists/import', { name: 'x', all: [{ inPlaylist: { id: 'abc' } }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('Unknown operator "inPlaylist"');
  });
});
