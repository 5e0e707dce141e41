import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlbumDetail, AlbumPage, AlbumSummary, ArtistDetail, ArtistPage, GenreSummary } from '@encore/common/browse.contract';
import { users } from '../../src/features/auth/auth.schema.js';
import { LibraryRepository, type NewSong } from '../../src/features/library/library.repository.js';
import { artistKeyOf, UNKNOWN_ALBUM, UNKNOWN_ARTIST, VARIOUS_ARTISTS } from '../../src/features/library/song-browse.identity.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);

/** The tags of one song; `folder` makes it a music folder's song (no uploader). */
interface Seed extends Partial<NewSong> {
  title: string;
  folder?: boolean;
}

const RELEASE = '6e335887-60ba-38f0-95af-fae7774336bf';

/** Songs whose tags exercise every rule of the model, tags that disagree included. */
const SEEDS: Seed[] = [
  // A two-disc album, added out of order; one song is a music folder's, the others uploads.
  { title: 'Disc two, track one', artist: 'The Beatles', albumArtist: 'The Beatles', album: 'White Album', discNumber: 2, trackNumber: 1, year: 1968 },
  { title: 'Disc one, track two', artist: 'The Beatles', albumArtist: 'The Beatles', album: 'White Album', discNumber: 1, trackNumber: 2, year: 1968 },
  {
    title: 'Disc one, track one',
    artist: 'the beatles',
    albumArtist: 'THE BEATLES',
    album: 'white album',
    discNumber: 1,
    trackNumber: 1,
    year: 1968,
    folder: true,
  },
  {
    title: 'Disc two, track two',
    artist: 'The Beatles',
    albumArtist: 'The Beatles',
    album: 'White Album',
    discNumber: 2,
    trackNumber: 2,
    year: 1968,
    albumArtistSort: 'Beatles, The',
  },
  // A compilation without a flag: one title, different artists, no album artist, no shared track numbers.
  { title: 'Comp one', artist: 'Anna', album: 'Summer Hits', trackNumber: 1, genres: ['Pop', 'Dance'], genre: 'Pop, Dance' },
  { title: 'Comp two', artist: 'Boris', album: 'Summer Hits', trackNumber: 2, genre: 'Pop' },
  { title: 'Comp three', artist: 'Carla', album: 'summer hits', trackNumber: 3, folder: true },
  // A flagged compilation.
  { title: 'Flagged one', artist: 'Dmitri', album: 'Winter Hits', compilation: true, trackNumber: 1 },
  { title: 'Flagged two', artist: 'Elena', album: 'Winter Hits', compilation: true, trackNumber: 2 },
  // Same title by two artists, each a whole album (both have a track 1): two albums.
  { title: 'Queen hit', artist: 'Queen', album: 'Greatest Hits', trackNumber: 1, year: 1981 },
  { title: 'Queen hit 2', artist: 'Queen', album: 'Greatest Hits', trackNumber: 2, year: 1981 },
  { title: 'ABBA hit', artist: 'ABBA', album: 'Greatest Hits', trackNumber: 1, year: 1975 },
  // A MusicBrainz release decides, whatever the names say.
  { title: 'Release one', artist: 'Zed', albumArtist: 'Zed', album: 'Release', mbzAlbumId: RELEASE, trackNumber: 1 },
  { title: 'Release two', artist: 'Zed', albumArtist: 'Zed & Friends', album: 'Release (Deluxe)', mbzAlbumId: RELEASE, trackNumber: 2 },
  // A sort tag puts Zyx first; a multi-valued artist tag makes Guest appear on Zyx's album.
  { title: 'Sorted', artist: 'Zyx', artists: ['Zyx', 'Guest'], album: 'Sorting', artistSort: 'Aaa', genres: ['Rock', 'Pop'], genre: 'Rock, Pop', year: 2001 },
  // No tags at all.
  { title: 'Untagged', folder: true },
];

describe.each(engines)('the browse model and web API on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let apiKey: string;
  let repository: LibraryRepository;
  let ownerId: number;
  const get = async <T>(url: string, expectedStatus = 200): Promise<T> => {
    const response = await t.app.inject({ url: `/api${url}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(expectedStatus);
    return response.json<T>();
  };
  const rest = async (query: string) =>
    (await t.app.inject({ url: `/rest/${query}&apiKey=${encodeURIComponent(apiKey)}&v=1.16.1&c=test&f=json` })).json<{
      'subsonic-response': Record<string, unknown>;
    }>()['subsonic-response'];
  const allAlbums = async () => (await get<AlbumPage>('/albums?limit=200')).items;
  const albumOf = async (name: string, artist: string): Promise<AlbumSummary> => {
    const found = (await allAlbums()).filter((album) => album.name === name && album.artist.name === artist);
    expect(found, `${name} by ${artist}`).toHaveLength(1);
    return found[0] as AlbumSummary;
  };

  const row = (seed: Seed, index: number): NewSong => {
    const { folder, title, ...tags } = seed;
    return {
      ownerId: folder ? null : ownerId,
      displayName: title,
      title,
      fileName: `${index}.mp3`,
      fileType: 'audio/mpeg',
      storageKey: folder ? `songs/folder-${index}.mp3` : `songs/${index}.mp3`,
      size: 3,
      durationSeconds: 100 + index,
      folderId: folder ? 1 : 0,
      uploadedAt: new Date(Date.UTC(2024, 0, 1) + index * 60_000),
      ...tags,
    };
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await account(t, 'ann');
    apiKey = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>()
      .key;
    const db = t.app.encore.platform.database.db;
    ownerId = (await db.select({ id: users.id }).from(users))[0]?.id ?? 0;
    repository = new LibraryRepository(db);
    const rows = SEEDS.map(row);
    await repository.insertMany(rows);
    for (const song of rows) await t.app.encore.platform.storage.put(song.storageKey, Buffer.from(`♪${song.title}`));
  });
  afterAll(async () => t?.close());

  it('keeps a two-disc album whole in disc and track order, case folded, uploads and folder songs together', async () => {
    const white = await albumOf('White Album', 'The Beatles');
    expect(white).toMatchObject({ songCount: 4, year: 1968 });
    const detail = await get<AlbumDetail>(`/albums/${white.id}`);
    expect(detail.songs.map((song) => [song.discNumber, song.trackNumber, song.title])).toEqual([
      [1, 1, 'Disc one, track one'],
      [1, 2, 'Disc one, track two'],
      [2, 1, 'Disc two, track one'],
      [2, 2, 'Disc two, track two'],
    ]);
    expect(detail.durationSeconds).toBe(detail.songs.reduce((sum, song) => sum + (song.durationSeconds ?? 0), 0));
  });

  it('files a compilation, flagged or not, as one album under Various Artists; same title by two artists stays two albums', async () => {
    const summer = await albumOf('Summer Hits', VARIOUS_ARTISTS);
    expect(summer.songCount).toBe(3);
    expect(await albumOf('Winter Hits', VARIOUS_ARTISTS)).toMatchObject({ songCount: 2 });
    const names = (await allAlbums()).map((album) => `${album.name} / ${album.artist.name}`);
    expect(names.filter((name) => name.startsWith('Summer Hits'))).toEqual([`Summer Hits / ${VARIOUS_ARTISTS}`]);
    expect(names.filter((name) => name.startsWith('Greatest Hits')).sort()).toEqual(['Greatest Hits / ABBA', 'Greatest Hits / Queen']);
    expect((await albumOf('Greatest Hits', 'Queen')).songCount).toBe(2);
    // The compilation's artists each show it as an album they appear on.
    const anna = await get<ArtistDetail>(`/artists/${await artistIdOf('Anna')}`);
    expect(anna.albums).toEqual([]);
    expect(anna.appearsOn.map((album) => album.name)).toEqual(['Summer Hits']);
  });

  /** An artist's id by name, found through the album they appear on or their own. */
  async function artistIdOf(name: string): Promise<string> {
    const listed = (await get<ArtistPage>(`/artists?q=${encodeURIComponent(name)}&limit=200`)).items.find((artist) => artist.name === name);
    if (listed) return listed.id;
    // A track artist only (no album of their own) is in no list: their id is their folded name's key.
    return artistKeyOf(name.toLowerCase());
  }

  it('lets a MusicBrainz release id decide the album when the names disagree', async () => {
    const release = (await allAlbums()).filter((album) => album.name.startsWith('Release'));
    expect(release).toHaveLength(1);
    expect(release[0]).toMatchObject({ name: 'Release', artist: { name: 'Zed' }, songCount: 2 });
  });

  it('orders artists by sort tag, a leading "The" left out, and names the untagged Unknown artist / Unknown album', async () => {
    const names = (await get<ArtistPage>('/artists?limit=200')).items.map((artist) => artist.name);
    // The unknown artist's name folds to nothing: first.
    expect(names).toEqual([UNKNOWN_ARTIST, 'Zyx', 'ABBA', 'The Beatles', 'Queen', VARIOUS_ARTISTS, 'Zed']);
    const unknown = await albumOf(UNKNOWN_ALBUM, UNKNOWN_ARTIST);
    expect(unknown.songCount).toBe(1);
  });

  it('counts each value of multi-valued genre and artist tags', async () => {
    const genres = await get<GenreSummary[]>('/genres');
    expect(genres).toEqual([
      { name: 'Dance', albumCount: 1, songCount: 1 },
      { name: 'Pop', albumCount: 2, songCount: 3 },
      { name: 'Rock', albumCount: 1, songCount: 1 },
    ]);
    expect((await get<AlbumPage>('/albums?genre=rock')).items.map((album) => album.name)).toEqual(['Sorting']);
    expect((await albumOf('Sorting', 'Zyx')).genres).toEqual(['Rock', 'Pop']);
    const guest = await get<ArtistDetail>(`/artists/${await artistIdOf('Guest')}`);
    expect(guest).toMatchObject({ name: 'Guest', albums: [] });
    expect(guest.appearsOn.map((album) => album.name)).toEqual(['Sorting']);
  });

  it('pages artists and albums on the server with cursors that neither repeat nor skip, in every sort', async () => {
    const whole = (await allAlbums()).map((album) => album.id);
    for (const sort of ['name', 'recent', 'artist', 'year', 'plays', 'random']) {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: AlbumPage = await get<AlbumPage>(`/albums?limit=3&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.items.map((album) => album.id));
        cursor = page.nextCursor;
      }
      expect([...seen].sort(), sort).toEqual([...whole].sort());
    }
    const years = (await get<AlbumPage>('/albums?sort=year&limit=200')).items.map((album) => album.year);
    expect(years.slice(0, 4)).toEqual([1968, 1975, 1981, 2001]);
    expect((await get<AlbumPage>('/albums?yearFrom=1970&yearTo=1990')).items.map((album) => album.name)).toEqual(['Greatest Hits', 'Greatest Hits']);
    const firstArtists = await get<ArtistPage>('/artists?limit=2');
    const nextArtists = await get<ArtistPage>(`/artists?limit=2&cursor=${firstArtists.nextCursor ?? ''}`);
    expect(nextArtists.items[0]?.name).toBe('ABBA');
    await get('/albums?cursor=nonsense', 400);
  });

  it('answers unknown ids with 404 and the usual message', async () => {
    expect(await get<{ message: string }>('/albums/nothing-here', 404)).toEqual({ message: 'Album not found' });
    expect(await get<{ message: string }>('/artists/nothing-here', 404)).toEqual({ message: 'Artist not found' });
    expect((await t.app.inject({ url: '/api/albums/nothing-here/download', headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/albums' })).statusCode).toBe(401);
  });

  it('agrees with the Subsonic API: the same albums, ids and counts', async () => {
    const albums = await allAlbums();
    const listed = (await rest('getAlbumList2?type=alphabeticalByName&size=500'))['albumList2'] as { album: { id: string; songCount: number }[] };
    expect(listed.album.map((album) => [album.id, album.songCount]).sort()).toEqual(albums.map((album) => [`al-${album.id}`, album.songCount]).sort());
    const artists = (await get<ArtistPage>('/artists?limit=200')).items;
    const index = (await rest('getArtists?x=1'))['artists'] as { index: { artist: { id: string; albumCount: number }[] }[] };
    const subsonicArtists = index.index.flatMap((letter) => letter.artist.map((artist) => [artist.id, artist.albumCount]));
    expect(subsonicArtists.sort()).toEqual(artists.map((artist) => [`ar-${artist.id}`, artist.albumCount]).sort());
    const white = await albumOf('White Album', 'The Beatles');
    const album = (await rest(`getAlbum?id=al-${white.id}`))['album'] as { song: { title: string }[] };
    expect(album.song.map((song) => song.title)).toEqual((await get<AlbumDetail>(`/albums/${white.id}`)).songs.map((song) => song.title));
  });

  it('streams an album as one zip of its original files in disc and track order', async () => {
    const white = await albumOf('White Album', 'The Beatles');
    const response = await t.app.inject({ url: `/api/albums/${white.id}/download`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const dir = await mkdtemp(path.join(tmpdir(), 'encore-zip-'));
    try {
      await writeFile(path.join(dir, 'album.zip'), response.rawPayload);
      const { stdout } = await run('unzip', ['-Z1', path.join(dir, 'album.zip')]);
      expect(stdout.trim().split('\n')).toEqual(['01 2.mp3', '02 1.mp3', '2-01 0.mp3', '2-02 3.mp3']);
      await run('unzip', ['-q', path.join(dir, 'album.zip'), '-d', path.join(dir, 'out')]);
      expect(await readFile(path.join(dir, 'out', '2-01 0.mp3'), 'utf8')).toBe('♪Disc two, track one');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds the model when a new song makes a title already filed a compilation', async () => {
    const before = await albumOf('Autumn Hits', 'Fiona').catch(() => undefined);
    expect(before).toBeUndefined();
    await repository.insertMany([row({ title: 'Autumn one', artist: 'Fiona', album: 'Autumn Hits', trackNumber: 1 }, 100)]);
    expect((await albumOf('Autumn Hits', 'Fiona')).songCount).toBe(1);
    await repository.insertMany([row({ title: 'Autumn two', artist: 'Gus', album: 'Autumn Hits', trackNumber: 2 }, 101)]);
    expect((await albumOf('Autumn Hits', VARIOUS_ARTISTS)).songCount).toBe(2);
    expect((await allAlbums()).filter((album) => album.name === 'Autumn Hits')).toHaveLength(1);
  });
});
