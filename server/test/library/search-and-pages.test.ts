import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_HEADER, type SongListEntry } from '@encore/common/library.contract';
import { LibraryRepository, type NewSong } from '../../src/features/library/library.repository.js';
import { count, eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { songSearch, songs } from '../../src/features/library/library.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { account, bearer } from './library-test-kit.js';

/** Rows straight through the repository: [display name, artist, album, track]. */
const CATALOGUE: [string, string | null, string | null, number | null][] = [
  ['Halo', 'Beyoncé', 'I Am... Sasha Fierce', 2],
  ['Crazy in Love', 'Beyoncé', 'Dangerously in Love', 1],
  ['Bohemian Rhapsody', 'Queen', 'A Night at the Opera', 11],
  ['Love of My Life', 'Queen', 'A Night at the Opera', 9],
  ['Jóga', 'Björk', 'Homogenic', 3],
  ['árvíztűrő tükörfúrógép', null, null, null],
  ['100% Pure_Love', 'Crystal Waters', 'Storyteller', 1],
  ['zebra song', 'ABBA', 'Arrival', 4],
];

describe.each(engines)('search, sort and pages of GET /files on %s', (engine) => {
  let t: TestApp;
  let ann: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    ann = await account(t, 'ann');
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select({ id: users.id }).from(users);
    if (!owner) throw new Error('no user');
    const base = Date.UTC(2024, 0, 1);
    const rows: NewSong[] = CATALOGUE.map(([displayName, artist, album, trackNumber], index) => ({
      ownerId: owner.id,
      displayName,
      title: displayName,
      artist,
      album,
      trackNumber,
      fileName: `${index}.mp3`,
      fileType: 'audio/mpeg',
      storageKey: `songs/${index}.mp3`,
      size: 1000 + index,
      uploadedAt: new Date(base + index * 60_000),
      transcript: `lyrics of ${displayName}`,
    }));
    const repository = new LibraryRepository(db);
    expect(await repository.insertMany(rows, 3)).toBe(CATALOGUE.length);
    // The same keys again add nothing.
    expect(await repository.insertMany(rows.slice(0, 2))).toBe(0);
  });
  afterAll(async () => t?.close());

  const page = async (query: string) => {
    const response = await t.app.inject({ url: `/api/files${query}`, headers: bearer(ann) });
    expect(response.statusCode, response.body).toBe(200);
    return {
      names: response.json<SongListEntry[]>().map((song) => song.displayName),
      total: Number(response.headers[TOTAL_COUNT_HEADER]),
      body: response.json<Record<string, unknown>[]>(),
    };
  };

  it('pages with the total count in X-Total-Count, and lists no lyrics (the song itself has them)', async () => {
    const first = await page('?limit=3');
    expect(first.names).toEqual(['zebra song', '100% Pure_Love', 'árvíztűrő tükörfúrógép']);
    expect(first.total).toBe(8);
    expect(first.body.every((song) => !('transcript' in song))).toBe(true);
    const last = await page('?limit=3&offset=6');
    expect(last.names).toEqual(['Crazy in Love', 'Halo']);
    expect(last.total).toBe(8);
    expect((await page('?limit=3&offset=100')).names).toEqual([]);
    expect((await page('?limit=3&offset=100')).total).toBe(8);
    expect((await page('')).total).toBe(8);
    const one = await t.app.inject({ url: `/api/files/${(await page('?limit=1')).body[0]?.['id']}`, headers: bearer(ann) });
    expect(one.json<{ transcript: string }>().transcript).toBe('lyrics of zebra song');
  });

  it('sorts by title, artist (then album and track) and album, ignoring case, songs without one last', async () => {
    expect((await page('?sort=title&limit=3')).names).toEqual(['100% Pure_Love', 'Bohemian Rhapsody', 'Crazy in Love']);
    expect((await page('?sort=artist')).names).toEqual([
      'zebra song',
      'Crazy in Love',
      'Halo',
      'Jóga',
      '100% Pure_Love',
      'Love of My Life',
      'Bohemian Rhapsody',
      'árvíztűrő tükörfúrógép',
    ]);
    expect((await page('?sort=album&limit=3')).names).toEqual(['Love of My Life', 'Bohemian Rhapsody', 'zebra song']);
    expect((await page('?sort=recent&limit=1')).names).toEqual(['zebra song']);
    const bad = await t.app.inject({ url: '/api/files?sort=size', headers: bearer(ann) });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('sort must be one of recent, title, artist, album');
  });

  it('finds title, artist and album whatever the case and accents, and counts the matches', async () => {
    expect((await page('?q=beyonce&sort=title')).names).toEqual(['Crazy in Love', 'Halo']);
    expect((await page('?q=beyonce&sort=title')).total).toBe(2);
    expect((await page('?q=BJORK')).names).toEqual(['Jóga']);
    expect((await page('?q=joga')).names).toEqual(['Jóga']);
    expect((await page('?q=ARVIZTURO')).names).toEqual(['árvíztűrő tükörfúrógép']);
    expect((await page('?q=opera%20love')).names).toEqual(['Love of My Life']);
    expect((await page('?q=homogenic')).names).toEqual(['Jóga']);
    expect((await page('?q=beyonc%C3%A9&limit=1')).total).toBe(2);
  });

  it('pages a search in every sort, with its total on each page and past the last one', async () => {
    // Two matches: the page and the total come from one pass over them.
    const all = await page('?q=beyonce&sort=title');
    for (const sort of ['title', 'artist', 'album', 'recent']) {
      const whole = await page(`?q=beyonce&sort=${sort}`);
      const first = await page(`?q=beyonce&sort=${sort}&limit=1`);
      const second = await page(`?q=beyonce&sort=${sort}&limit=1&offset=1`);
      expect([...first.names, ...second.names]).toEqual(whole.names);
      expect([first.total, second.total]).toEqual([2, 2]);
    }
    expect(await page('?q=beyonce&limit=1&offset=2')).toMatchObject({ names: [], total: 2 });
    expect(await page('?q=beyonce&limit=5&offset=50')).toMatchObject({ names: [], total: 2 });
    expect(await page('?q=xyzzyplugh&limit=5&offset=5')).toMatchObject({ names: [], total: 0 });
    expect(all.names).toEqual(['Crazy in Love', 'Halo']);
  });

  it('tolerates one typo in words of five letters or more, not in short ones', async () => {
    expect((await page('?q=beyonse&sort=title')).names).toEqual(['Crazy in Love', 'Halo']);
    expect((await page('?q=bohemain')).names).toEqual(['Bohemian Rhapsody']);
    expect((await page('?q=rapsody')).names).toEqual(['Bohemian Rhapsody']);
    expect((await page('?q=queem&sort=title')).names).toEqual(['Bohemian Rhapsody', 'Love of My Life']);
    expect((await page('?q=halp')).names).toEqual([]);
    expect((await page('?q=xyzzyplugh')).names).toEqual([]);
  });

  it('runs a search of several long words one query at a time on its transaction', async () => {
    // node-postgres warns (once per process) when a client is handed a query while it runs one.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      expect((await page('?q=bohemain rapsody opera')).names).toEqual(['Bohemian Rhapsody']);
      expect((await page('?q=dangerusly beyonse')).names).toEqual(['Crazy in Love']);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
  });

  it('corrects a typo against the words of songs added later, in any script', async () => {
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select({ id: users.id }).from(users);
    const song = (displayName: string, artist: string, key: string): NewSong => ({
      ownerId: owner!.id,
      displayName,
      title: displayName,
      artist,
      album: null,
      fileName: `${key}.mp3`,
      fileType: 'audio/mpeg',
      storageKey: `songs/${key}.mp3`,
      size: 1000,
      uploadedAt: new Date(Date.UTC(2025, 0, 1)),
    });
    expect((await page('?q=yerushalaim')).names).toEqual([]);
    await new LibraryRepository(db).insertMany([song('Yerushalayim shel zahav', 'Shuli Natan', 'late-1'), song('ירושלים של זהב', 'שולי נתן', 'late-2')]);
    expect((await page('?q=yerushalaim')).names).toEqual(['Yerushalayim shel zahav']);
    expect((await page('?q=%D7%99%D7%A8%D7%95%D7%A9%D7%9C%D7%99%D7%9D')).names).toEqual(['ירושלים של זהב']);
    // One letter missing from a Hebrew word still finds it.
    expect((await page('?q=%D7%99%D7%A8%D7%95%D7%A9%D7%9C%D7%9D')).names).toEqual(['ירושלים של זהב']);
  });

  it('treats % and _ literally and refuses a search that is too long', async () => {
    expect((await page('?q=100%25')).names).toEqual(['100% Pure_Love']);
    expect((await page('?q=e_l')).names).toEqual(['100% Pure_Love']);
    expect((await page('?q=%25%25%25')).names).toEqual([]);
    const tooLong = await t.app.inject({ url: `/api/files?q=${'a'.repeat(201)}`, headers: bearer(ann) });
    expect(tooLong.statusCode).toBe(400);
  });

  it('searches what a song is now: renamed, another artist, another album or track', async () => {
    const db = t.app.encore.platform.database.db;
    const [zebra] = await db.select().from(songs).where(eq(songs.displayName, 'zebra song'));
    if (!zebra) throw new Error('no zebra song');
    try {
      await db.update(songs).set({ displayName: 'Crossing', artist: 'Agnetha', album: 'Solo Years', trackNumber: 1 }).where(eq(songs.id, zebra.id));
      expect((await page('?q=zebra')).names).toEqual([]);
      expect((await page('?q=abba')).names).toEqual([]);
      expect((await page('?q=agnetha')).names).toEqual(['Crossing']);
      expect((await page('?q=solo%20years')).names).toEqual(['Crossing']);
      // The sort keys follow too: "crossing" now sorts before "crazy in love" by title.
      expect((await page('?q=cr&sort=title')).names).toEqual(['100% Pure_Love', 'Crazy in Love', 'Crossing']);
      expect((await page('?q=agnetha&sort=artist')).names).toEqual(['Crossing']);
      // Lyrics are not searched, and changing them leaves the search alone.
      await db.update(songs).set({ transcript: 'zebra zebra zebra' }).where(eq(songs.id, zebra.id));
      expect((await page('?q=zebra')).names).toEqual([]);
      expect((await page('?q=crossing')).names).toEqual(['Crossing']);
    } finally {
      await db
        .update(songs)
        .set({ displayName: zebra.displayName, artist: zebra.artist, album: zebra.album, trackNumber: zebra.trackNumber, transcript: zebra.transcript })
        .where(eq(songs.id, zebra.id));
    }
    expect((await page('?q=zebra')).names).toEqual(['zebra song']);
    expect((await page('?q=abba')).names).toEqual(['zebra song']);
    // One search row per song, whichever way it was added.
    const [[inLibrary], [searchable]] = await Promise.all([db.select({ n: count() }).from(songs), db.select({ n: count() }).from(songSearch)]);
    expect(searchable?.n).toBe(inLibrary?.n);
  });

  // Last in this file: it deletes a song.
  it('counts favorites across pages: only the caller’s likes, none of a deleted song’s', async () => {
    const bea = await account(t, 'bea');
    const all = (await page('?limit=100&sort=title')).body as unknown as { id: number; displayName: string }[];
    const like = async (token: string, id: number) =>
      expect((await t.app.inject({ method: 'POST', url: `/api/files/${id}/like`, headers: bearer(token) })).json()).toMatchObject({ isLiked: true });
    for (const song of all.slice(0, 5)) await like(ann, song.id);
    for (const song of all.slice(3)) await like(bea, song.id);
    const favorites = async (query: string) => {
      const response = await t.app.inject({ url: `/api/files?favorites=true${query}`, headers: bearer(ann) });
      return { names: response.json<SongListEntry[]>().map((song) => song.displayName), total: Number(response.headers[TOTAL_COUNT_HEADER]) };
    };
    const liked = all.slice(0, 5).map((song) => song.displayName);
    expect(await favorites('&sort=title&limit=2&offset=2')).toEqual({ names: liked.slice(2, 4), total: 5 });
    expect(await favorites('&sort=title&limit=2&offset=4')).toEqual({ names: liked.slice(4), total: 5 });
    expect((await favorites('&limit=2&offset=2&q=love')).total).toBe(liked.filter((name) => /love/i.test(name)).length);
    // A deleted song's likes go with it, and the count follows.
    const gone = all[1]!;
    await t.app.encore.platform.database.db.delete(songs).where(eq(songs.id, gone.id));
    expect(await favorites('&sort=title&limit=2&offset=2')).toEqual({ names: liked.filter((name) => name !== gone.displayName).slice(2, 4), total: 4 });
    // Nor does a search find it any more.
    expect((await page(`?q=${encodeURIComponent(gone.displayName)}`)).names).not.toContain(gone.displayName);
    const [left] = await t.app.encore.platform.database.db.select({ n: count() }).from(songSearch).where(eq(songSearch.songId, gone.id));
    expect(left?.n).toBe(0);
  });
});
