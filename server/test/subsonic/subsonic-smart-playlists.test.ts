import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;

/**
 * Issue 41: a smart playlist in getPlaylists and getPlaylist says how many songs match for the
 * user now and how long they play in all (each song's seconds rounded, as a song's duration is),
 * its rules' limit and order counted; in JSON and in XML.
 */
describe.each(engines)('Subsonic smart playlists: song counts and durations (%s)', (engine) => {
  let t: TestApp;
  let adaKey: string;
  let allJazz: number;
  let oldestJazz: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    const adaToken = await account(t, 'ada');
    adaKey = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(adaToken), payload: { name: 'Phone' } })).json<{ key: string }>()
      .key;
    const db = t.app.encore.platform.database.db;
    const ownerId = (await db.select().from(users).where(eq(users.userName, 'ada')))[0]!.id;
    const values: { title: string; genre: string; year: number; durationSeconds: number | null }[] = [
      { title: 'Blue', genre: 'Jazz', year: 1959, durationSeconds: 100.4 },
      { title: 'Green', genre: 'Jazz', year: 1961, durationSeconds: 200.6 },
      { title: 'Red', genre: 'Jazz', year: 1970, durationSeconds: 59.5 },
      { title: 'Grey', genre: 'Jazz', year: 1980, durationSeconds: null },
      { title: 'Loud', genre: 'Rock', year: 1990, durationSeconds: 300 },
    ];
    for (const song of values) {
      await db.insert(songs).values({
        ownerId,
        displayName: song.title,
        fileName: `${song.title}.mp3`,
        fileType: 'audio/mpeg',
        storageKey: `uploads/${ownerId}/${song.title}/song.mp3`,
        size: 1000,
        ...song,
      });
    }
    const create = async (name: string, rules: object) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/smart-playlists', headers: bearer(adaToken), payload: { name, rules } });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number }>().id;
    };
    allJazz = await create('All jazz', { all: [{ is: { genre: 'Jazz' } }] });
    oldestJazz = await create('Oldest jazz', { all: [{ is: { genre: 'Jazz' } }], sort: 'year', limit: 2 });
  });
  afterAll(async () => t?.close());

  const url = (method: string, query: string, format: 'json' | 'xml') =>
    `/rest/${method}?${query}${query ? '&' : ''}apiKey=${encodeURIComponent(adaKey)}&v=1.16.1&c=Tester${format === 'json' ? '&f=json' : ''}`;
  const json = async (method: string, query = ''): Promise<Json> => {
    const response = await t.app.inject({ url: url(method, query, 'json') });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ 'subsonic-response': Json }>()['subsonic-response'];
    expect(answer['status'], JSON.stringify(answer['error'])).toBe('ok');
    return answer;
  };
  const xml = async (method: string, query = ''): Promise<string> => {
    const response = await t.app.inject({ url: url(method, query, 'xml') });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('status="ok"');
    return response.body;
  };
  /** The attributes of the `<playlist>` element with this id. */
  const xmlPlaylist = (body: string, id: string): Record<string, string> => {
    const element = new RegExp(`<playlist [^>]*id="${id}"[^>]*>`).exec(body)?.[0];
    expect(element, `no playlist ${id} in ${body}`).toBeDefined();
    return Object.fromEntries([...element!.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]));
  };

  it('getPlaylists gives each smart playlist its matching songs and their total duration', async () => {
    const listed = ((await json('getPlaylists'))['playlists'] as { playlist: Json[] }).playlist;
    expect(listed.find((playlist) => playlist['id'] === `smart-${allJazz}`)).toMatchObject({ name: 'All jazz', songCount: 4, duration: 100 + 201 + 60 + 0 });
    // The limit takes the first two by year: Blue and Green.
    expect(listed.find((playlist) => playlist['id'] === `smart-${oldestJazz}`)).toMatchObject({ name: 'Oldest jazz', songCount: 2, duration: 100 + 201 });

    const body = await xml('getPlaylists');
    expect(xmlPlaylist(body, `smart-${allJazz}`)).toMatchObject({ songCount: '4', duration: '361' });
    expect(xmlPlaylist(body, `smart-${oldestJazz}`)).toMatchObject({ songCount: '2', duration: '301' });
  });

  it('getPlaylist gives the same count and duration as its entries add up to', async () => {
    const playlist = (await json('getPlaylist', `id=smart-${allJazz}`))['playlist'] as Json & { entry: Json[] };
    expect(playlist).toMatchObject({ songCount: 4, duration: 361 });
    expect(playlist.entry.reduce((total, song) => total + ((song['duration'] as number | undefined) ?? 0), 0)).toBe(361);
    expect((await json('getPlaylist', `id=smart-${oldestJazz}`))['playlist'] as Json).toMatchObject({ songCount: 2, duration: 301 });

    expect(xmlPlaylist(await xml('getPlaylist', `id=smart-${allJazz}`), `smart-${allJazz}`)).toMatchObject({ songCount: '4', duration: '361' });
    expect(xmlPlaylist(await xml('getPlaylist', `id=smart-${oldestJazz}`), `smart-${oldestJazz}`)).toMatchObject({ songCount: '2', duration: '301' });
  });
});
