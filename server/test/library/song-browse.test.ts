import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { LibraryRepository, type NewSong } from '../../src/features/library/library.repository.js';
import { folderSongsPort, songBrowsePort, type AlbumRecord, type SongBrowse } from '../../src/features/library/library.port.js';
import { songLikes, songs } from '../../src/features/library/library.schema.js';
import { libraryModule } from '../../src/features/library/library.module.js';
import { SongBrowseRepository } from '../../src/features/library/song-browse.repository.js';
import { SONGS_CHANNEL, SongBrowseService } from '../../src/features/library/song-browse.service.js';
import { albumKeyOf, artistKeyOf, UNKNOWN_ALBUM, UNKNOWN_ARTIST } from '../../src/features/library/song-browse.index.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { account } from './library-test-kit.js';

/** Tags of the songs the grouping is checked on; `owner: false` is a music folder's song. */
interface Seed {
  title: string | null;
  artist?: string | null;
  albumArtist?: string | null;
  album?: string | null;
  year?: number;
  genre?: string;
  disc?: number;
  track?: number;
  cover?: boolean;
  owner?: boolean;
  missing?: boolean;
  duration?: number;
}

const SEEDS: Seed[] = [
  { title: 'Jóga', artist: 'Björk', album: 'Homogenic', year: 1997, genre: 'Electronic', track: 3, cover: true, duration: 305 },
  { title: 'Bachelorette', artist: 'bjork', album: 'HOMOGENIC', year: 1997, genre: 'electronic', disc: 1, track: 1, duration: 312 },
  { title: 'Hunter', artist: 'BJÖRK', album: 'homogénic', year: 1998, disc: 1, track: 2, duration: 255 },
  { title: 'Army of Me', artist: 'Björk', album: 'Post', year: 1995, genre: 'Alternative' },
  { title: 'Guest One', artist: 'X Guest', albumArtist: 'Various Artists', album: 'Hits', year: 2001, cover: true },
  { title: 'Guest Two', artist: 'Y Guest', albumArtist: 'Various Artists', album: 'Hits', year: 2001 },
  { title: null },
  { title: 'Loose Single', artist: 'Queen', album: '' },
  { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'A Night at the Opera', year: 1975, genre: 'Rock', track: 11 },
  { title: 'Love of My Life', artist: 'Queen', album: 'A Night at the Opera', year: 1975, genre: 'Rock', track: 9, owner: false },
  { title: 'Gone Song', artist: 'Queen', album: 'A Night at the Opera', year: 1975, track: 1, owner: false, missing: true },
  { title: 'Ghost Song', artist: 'Ghost', album: 'Gone', owner: false, missing: true },
];
const BULK = 1_200;
const base = Date.UTC(2024, 0, 1);

function row(seed: Seed, index: number, ownerId: number): NewSong {
  return {
    ownerId: seed.owner === false ? null : ownerId,
    displayName: seed.title ?? `track${index}`,
    title: seed.title,
    artist: seed.artist ?? null,
    albumArtist: seed.albumArtist ?? null,
    album: seed.album ?? null,
    year: seed.year ?? null,
    genre: seed.genre ?? null,
    discNumber: seed.disc ?? null,
    trackNumber: seed.track ?? null,
    durationSeconds: seed.duration ?? 200,
    fileName: `${index}.mp3`,
    fileType: 'audio/mpeg',
    storageKey: seed.owner === false ? `music/1/${index}.mp3` : `songs/${index}.mp3`,
    size: 1000,
    uploadedAt: new Date(base + index * 60_000),
    coverKey: seed.cover ? `covers/${index}.jpg` : null,
    missingSince: seed.missing ? new Date() : null,
    folderId: seed.owner === false ? 1 : 0,
  };
}

describe.each(engines)('song-browse (the ID3 model) on %s', (engine) => {
  let t: TestApp;
  let browse: SongBrowse;
  let repository: LibraryRepository;
  let ann: number;
  let bob: number;
  /** Song ids by title. */
  const id = new Map<string, number>();
  const idOf = (title: string) => {
    const found = id.get(title);
    if (found === undefined) throw new Error(`no song ${title}`);
    return found;
  };
  const page = (count: number, offset = 0) => ({ count, offset });
  const none = page(0);
  const albumNamed = async (name: string, artist: string) => {
    const albums = (await browse.search('', { artists: none, albums: page(10_000), songs: none }, ann)).albums;
    return albums.find((album) => album.name === name && album.artist === artist);
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    await account(t, 'ann');
    await account(t, 'bob');
    const db = t.app.encore.platform.database.db;
    const accounts = await db.select({ id: users.id, userName: users.userName }).from(users);
    ann = accounts.find((user) => user.userName === 'ann')?.id ?? 0;
    bob = accounts.find((user) => user.userName === 'bob')?.id ?? 0;
    repository = new LibraryRepository(db);
    const bulk: Seed[] = Array.from({ length: BULK }, (_, i) => ({
      title: `Bulk song ${i}`,
      artist: `Bulk Artist ${i % 40}`,
      album: `Volume ${i % 120}`,
      year: 1950 + (i % 40),
      genre: 'Bulk',
    }));
    expect(await repository.insertMany([...SEEDS, ...bulk].map((seed, index) => row(seed, index, ann)))).toBe(SEEDS.length + BULK);
    const rows = await db.select({ id: songs.id, title: songs.displayName }).from(songs);
    for (const song of rows) id.set(song.title, song.id);
    browse = t.app.encore.modules.port(songBrowsePort);
  });
  afterAll(async () => t?.close());

  it('groups songs by album artist, else artist, with case and accents folded; missing songs are left out', async () => {
    const artists = await browse.artists();
    const names = artists.map((artist) => artist.name);
    expect(names).toContain('Björk');
    expect(names.filter((name) => name.toLowerCase().includes('bj'))).toEqual(['Björk']);
    expect(names).not.toContain('Ghost');
    expect(names).not.toContain('X Guest');
    const bjork = artists.find((artist) => artist.name === 'Björk');
    expect(bjork).toMatchObject({ key: artistKeyOf('bjork'), albumCount: 2, songCount: 4, coverSongId: idOf('Jóga') });
    expect(await browse.artist(bjork?.key ?? '')).toEqual(bjork);
    expect(artists.find((artist) => artist.name === 'Various Artists')).toMatchObject({ albumCount: 1, songCount: 2 });
    // Artists by folded name (Björk as "bjork"); the unknown artist's name is empty, so first.
    expect(artists[0]?.name).toBe(UNKNOWN_ARTIST);
    const folded = artists.slice(1).map((artist) => artist.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
    expect(folded).toEqual([...folded].sort());

    const homogenic = await albumNamed('Homogenic', 'Björk');
    expect(homogenic).toEqual<AlbumRecord>({
      key: albumKeyOf('bjork', 'homogenic'),
      artist: 'Björk',
      name: 'Homogenic',
      songCount: 3,
      durationSeconds: 305 + 312 + 255,
      year: 1997,
      genre: 'Electronic',
      genres: ['Electronic'],
      addedAt: new Date(base),
      coverSongId: idOf('Jóga'),
      artistKey: artistKeyOf('bjork'),
      songIds: ['Jóga', 'Bachelorette', 'Hunter'].map(idOf),
      musicBrainzId: null,
    });
    expect(await browse.album(homogenic?.key ?? '')).toEqual(homogenic);
    const tracks = await browse.albumSongs(homogenic?.key ?? '', ann);
    expect(tracks.map((song) => song.title)).toEqual(['Bachelorette', 'Hunter', 'Jóga']);
    expect(tracks[0]).toMatchObject({ isLiked: false, album: 'HOMOGENIC', albumKey: homogenic?.key, artistKey: artistKeyOf('bjork'), musicFolderId: 0 });
    expect(tracks[0]).not.toHaveProperty('transcript');

    const queen = await browse.albumsOf(artistKeyOf('queen'));
    // By year (none last), then name: the songs without an album tag are one album of no name.
    expect(queen.map((album) => [album.name, album.songCount])).toEqual([
      ['A Night at the Opera', 2],
      [UNKNOWN_ALBUM, 1],
    ]);
    const opera = await browse.albumSongs(queen[0]?.key ?? '', ann);
    expect(opera.map((song) => [song.title, song.musicFolderId])).toEqual([
      ['Love of My Life', 1],
      ['Bohemian Rhapsody', 0],
    ]);
    // By ids, in their order, repeats kept, unknown and missing ones left out.
    const byIds = await browse.songs([idOf('Hunter'), 999_999, idOf('Gone Song'), idOf('Jóga'), idOf('Hunter')], ann);
    expect(byIds.map((song) => song.title)).toEqual(['Hunter', 'Jóga', 'Hunter']);
    expect(await browse.songs([], ann)).toEqual([]);

    const unknown = await browse.artist(artistKeyOf(''));
    expect(unknown).toMatchObject({ name: UNKNOWN_ARTIST, albumCount: 1, songCount: 1 });
    expect(await browse.albumsOf(artistKeyOf(''))).toMatchObject([{ name: UNKNOWN_ALBUM, artist: UNKNOWN_ARTIST, songCount: 1 }]);

    const keys = await browse.keysOf([idOf('Hunter'), idOf('Guest Two'), idOf('Gone Song'), 999_999]);
    expect([...keys.entries()]).toEqual([
      // The album's artist, and the song's own (first) artist, whom the web app's song links name.
      [idOf('Hunter'), { albumKey: homogenic?.key, artistKey: bjork?.key, trackArtistKey: bjork?.key }],
      [
        idOf('Guest Two'),
        { albumKey: albumKeyOf('various artists', 'hits'), artistKey: artistKeyOf('various artists'), trackArtistKey: artistKeyOf('y guest') },
      ],
    ]);
  });

  it('answers unknown keys and odd pages with nothing rather than failing', async () => {
    expect(await browse.artist('nope')).toBeUndefined();
    expect(await browse.album('')).toBeUndefined();
    expect(await browse.albumsOf('nope')).toEqual([]);
    expect(await browse.albumSongs('nope', ann)).toEqual([]);
    expect(await browse.albumList('newest', page(-5, -10), { viewerId: ann })).toEqual([]);
    expect(await browse.albumList('newest', page(Number.NaN, 3), { viewerId: ann })).toEqual([]);
    expect(await browse.albumList('byGenre', page(10), { viewerId: ann })).toEqual([]);
    expect(await browse.albumList('byGenre', page(10), { viewerId: ann, genre: 'Polka' })).toEqual([]);
    expect(await browse.songsByGenre('Polka', page(10), ann)).toEqual([]);
    expect(await browse.randomSongs({ size: -3 }, ann)).toEqual([]);
    expect((await browse.search('%_', { artists: page(10), albums: page(10), songs: page(10) }, ann)).songs).toEqual([]);
  });

  it('lists albums in every kind of getAlbumList2, in pages that neither overlap nor skip', async () => {
    const viewer = { viewerId: ann };
    const all = await browse.albumList('alphabeticalByArtist', page(10_000), viewer);
    // Björk's two, Queen's two (one without an album tag), the compilation, the unknown artist's.
    expect(all).toHaveLength(120 + 6);
    const pages = [];
    for (let offset = 0; offset < all.length; offset += 50) pages.push(...(await browse.albumList('alphabeticalByArtist', page(50, offset), viewer)));
    expect(pages.map((album) => album.key)).toEqual(all.map((album) => album.key));
    expect(all[0]).toMatchObject({ artist: UNKNOWN_ARTIST, name: UNKNOWN_ALBUM });
    expect(all[1]).toMatchObject({ artist: 'Björk', name: 'Homogenic' });
    expect(all[2]).toMatchObject({ artist: 'Björk', name: 'Post' });

    const newest = await browse.albumList('newest', page(3), viewer);
    expect(newest.map((album) => album.addedAt.getTime())).toEqual([...newest.map((album) => album.addedAt.getTime())].sort((a, b) => b - a));
    expect(newest[0]?.name).toBe('Volume 119');

    const byName = await browse.albumList('alphabeticalByName', page(3), viewer);
    expect(byName.map((album) => album.name)).toEqual([UNKNOWN_ALBUM, UNKNOWN_ALBUM, 'A Night at the Opera']);

    const up = await browse.albumList('byYear', page(100), { ...viewer, fromYear: 1990, toYear: 2001 });
    expect(up.map((album) => [album.name, album.year])).toEqual([
      ['Post', 1995],
      ['Homogenic', 1997],
      ['Hits', 2001],
    ]);
    const down = await browse.albumList('byYear', page(2), { ...viewer, fromYear: 2001, toYear: 1990 });
    expect(down.map((album) => album.name)).toEqual(['Hits', 'Homogenic']);

    const electronic = await browse.albumList('byGenre', page(10), { ...viewer, genre: 'ELECTRONIC' });
    expect(electronic.map((album) => album.name)).toEqual(['Homogenic']);
    expect(await browse.albumList('byGenre', page(500), { ...viewer, genre: 'bulk' })).toHaveLength(120);

    const random = await browse.albumList('random', page(20), viewer);
    expect(random).toHaveLength(20);
    expect(new Set(random.map((album) => album.key)).size).toBe(20);
  });

  it('counts genres (spellings folded together) and pages their songs', async () => {
    const genres = await browse.genres();
    expect(genres.find((genre) => genre.name === 'Electronic')).toEqual({ name: 'Electronic', songCount: 2, albumCount: 1 });
    expect(genres.find((genre) => genre.name === 'Bulk')).toEqual({ name: 'Bulk', songCount: BULK, albumCount: 120 });
    expect(genres.map((genre) => genre.name.toLowerCase())).toEqual(['alternative', 'bulk', 'electronic', 'rock']);
    const first = await browse.songsByGenre('bulk', page(700), ann);
    const second = await browse.songsByGenre('Bulk', page(700, 700), ann);
    expect(first).toHaveLength(700);
    expect(second).toHaveLength(BULK - 700);
    expect(new Set([...first, ...second].map((song) => song.id)).size).toBe(BULK);
    const rock = await browse.songsByGenre('rock', page(10), ann);
    expect(rock.map((song) => song.title)).toEqual(['Bohemian Rhapsody', 'Love of My Life']);

    const random = await browse.randomSongs({ size: 5, genre: 'Rock' }, ann);
    expect(random.map((song) => song.title).sort()).toEqual(['Bohemian Rhapsody', 'Love of My Life']);
    const years = await browse.randomSongs({ size: 50, fromYear: 1996, toYear: 1998 }, ann);
    expect(years.map((song) => song.title).sort()).toEqual(['Bachelorette', 'Hunter', 'Jóga']);
    expect(await browse.randomSongs({ size: 10_000 }, ann)).toHaveLength(500);
  });

  it('searches words folded in artists, albums (name or artist) and songs, and pages the whole library with an empty query', async () => {
    const pages = { artists: page(10), albums: page(10), songs: page(10) };
    const bjork = await browse.search('BJORK', pages, ann);
    expect(bjork.artists.map((artist) => artist.name)).toEqual(['Björk']);
    expect(bjork.albums.map((album) => album.name)).toEqual(['Homogenic', 'Post']);
    expect(bjork.songs.map((song) => song.title)).toEqual(['Army of Me', 'Bachelorette', 'Hunter', 'Jóga']);
    const two = await browse.search('homogénic  bjork', pages, ann);
    expect(two.artists).toEqual([]);
    expect(two.albums.map((album) => album.name)).toEqual(['Homogenic']);
    expect((await browse.search('joga', pages, ann)).songs.map((song) => song.title)).toEqual(['Jóga']);
    expect((await browse.search('ghost', pages, ann)).songs).toEqual([]);
    const guests = await browse.search('various hits', pages, ann);
    expect(guests.albums.map((album) => album.artist)).toEqual(['Various Artists']);

    const present = SEEDS.filter((seed) => !seed.missing).length + BULK;
    const seen: number[] = [];
    for (let offset = 0; ; offset += 500) {
      const found = await browse.search('', { artists: page(0), albums: page(0), songs: page(500, offset) }, ann);
      seen.push(...found.songs.map((song) => song.id));
      if (found.songs.length < 500) break;
    }
    expect(seen).toHaveLength(present);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(present);
    expect(seen).not.toContain(idOf('Gone Song'));
    const everything = await browse.search('', { artists: page(1000), albums: page(2, 1), songs: none }, ann);
    expect(everything.artists).toHaveLength(40 + 4);
    expect(everything.albums.map((album) => album.name)).toEqual(['Homogenic', 'Post']);
  });

  it("stars the viewer's liked songs, newest first, and the albums and artists all of whose songs they liked", async () => {
    const db = t.app.encore.platform.database.db;
    const likes: [string, number][] = [
      ['Jóga', 1],
      ['Bachelorette', 2],
      ['Hunter', 3],
      ['Bohemian Rhapsody', 4],
      ['Gone Song', 5],
    ];
    await db.insert(songLikes).values(likes.map(([title, minute]) => ({ userId: ann, songId: idOf(title), createdAt: new Date(base + minute * 60_000) })));
    const starred = await browse.starred(ann);
    expect(starred.songs.map((song) => [song.title, song.isLiked])).toEqual([
      ['Bohemian Rhapsody', true],
      ['Hunter', true],
      ['Bachelorette', true],
      ['Jóga', true],
    ]);
    expect(starred.albums.map((album) => album.name)).toEqual(['Homogenic']);
    expect(starred.artists).toEqual([]);
    expect(await browse.starred(bob)).toEqual({ songs: [], albums: [], artists: [] });

    const viewer = { viewerId: ann };
    expect((await browse.albumList('starred', page(10), viewer)).map((album) => album.name)).toEqual(['A Night at the Opera', 'Homogenic']);
    expect(await browse.likedSongIds(ann)).toEqual(['Bohemian Rhapsody', 'Hunter', 'Bachelorette', 'Jóga'].map(idOf));
    const ofSongs = await browse.albumsOfSongs([idOf('Hunter'), idOf('Jóga'), idOf('Love of My Life'), 999_999]);
    expect(ofSongs.map((album) => album.name).sort()).toEqual(['A Night at the Opera', 'Homogenic']);
    // An album with songs in both libraries is in both.
    expect((await browse.albumsOfSongs([idOf('Hunter'), idOf('Love of My Life')], { musicFolderId: 1 })).map((album) => album.name)).toEqual([
      'A Night at the Opera',
    ]);
    expect(await browse.albumsOfSongs([idOf('Hunter')], { musicFolderId: 1 })).toEqual([]);
    expect(await browse.albumList('starred', page(10), { viewerId: bob })).toEqual([]);

    await db.insert(songLikes).values({ userId: ann, songId: idOf('Army of Me'), createdAt: new Date(base + 6 * 60_000) });
    expect((await browse.starred(ann)).artists.map((artist) => artist.name)).toEqual(['Björk']);
    expect((await browse.albumSongs(albumKeyOf('bjork', 'post'), ann))[0]?.isLiked).toBe(true);
    expect((await browse.albumSongs(albumKeyOf('bjork', 'post'), bob))[0]?.isLiked).toBe(false);
  });

  it('narrows artists, album lists, songs and searches to the uploads or a music folder', async () => {
    const uploads = { musicFolderId: 0 };
    const folder = { musicFolderId: 1 };
    const viewer = { viewerId: ann };
    expect((await browse.artists(folder)).map((artist) => artist.name)).toEqual(['Queen']);
    expect(await browse.artists(uploads)).toHaveLength((await browse.artists()).length);
    expect(await browse.artists({ musicFolderId: 2 })).toEqual([]);
    expect((await browse.albumList('alphabeticalByName', page(10), { ...viewer, ...folder })).map((album) => album.name)).toEqual(['A Night at the Opera']);
    expect(await browse.albumList('newest', page(10), { ...viewer, musicFolderId: 2 })).toEqual([]);
    expect((await browse.songsByGenre('rock', page(10), ann, folder)).map((song) => song.title)).toEqual(['Love of My Life']);
    expect((await browse.songsByGenre('rock', page(10), ann, uploads)).map((song) => song.title)).toEqual(['Bohemian Rhapsody']);
    expect((await browse.randomSongs({ size: 50, ...folder }, ann)).map((song) => song.title)).toEqual(['Love of My Life']);
    const everything = await browse.search('', { artists: page(100), albums: page(100), songs: page(100) }, ann, folder);
    expect(everything.songs.map((song) => song.title)).toEqual(['Love of My Life']);
    expect(everything.albums.map((album) => album.name)).toEqual(['A Night at the Opera']);
    expect((await browse.search('queen', { artists: page(10), albums: page(10), songs: page(10) }, ann, uploads)).songs.map((song) => song.title)).toEqual([
      'Bohemian Rhapsody',
      'Loose Single',
    ]);
  });

  it('follows songs added, hidden, shown again and deleted', async () => {
    const db = t.app.encore.platform.database.db;
    const before = await browse.album(albumKeyOf('bjork', 'post'));
    expect(before?.songCount).toBe(1);
    await repository.insertMany([row({ title: 'Hyperballad', artist: 'Björk', album: 'Post', year: 1995, cover: true }, 5000, ann)]);
    const [added] = await db.select({ id: songs.id }).from(songs).where(eq(songs.displayName, 'Hyperballad'));
    const after = await browse.album(albumKeyOf('bjork', 'post'));
    expect(after).toMatchObject({ songCount: 2, coverSongId: added?.id });
    expect((await browse.keysOf([added?.id ?? 0])).get(added?.id ?? 0)?.albumKey).toBe(albumKeyOf('bjork', 'post'));

    const folderSongs = t.app.encore.modules.port(folderSongsPort);
    await folderSongs.setMissing([idOf('Love of My Life')], new Date());
    expect((await browse.album(albumKeyOf('queen', 'a night at the opera')))?.songCount).toBe(1);
    await folderSongs.setMissing([idOf('Love of My Life'), idOf('Gone Song')], null);
    expect((await browse.album(albumKeyOf('queen', 'a night at the opera')))?.songCount).toBe(3);

    await db.delete(songs).where(inArray(songs.id, [added?.id ?? 0, idOf('Army of Me')]));
    expect(await browse.album(albumKeyOf('bjork', 'post'))).toBeUndefined();
    expect((await browse.artist(artistKeyOf('bjork')))?.albumCount).toBe(1);
  });

  it('counts songs with the triggers exactly as count(*) does, through inserts of many rows, deletes and a deleted account', async () => {
    const db = t.app.encore.platform.database.db;
    const rows = new SongBrowseRepository(db);
    const counted = async () => (await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(songs))[0]?.n ?? -1;
    expect((await rows.version()).count).toBe(await counted());
    const carl = await account(t, 'carl').then(async () => (await db.select({ id: users.id }).from(users).where(eq(users.userName, 'carl')))[0]?.id ?? 0);
    await repository.insertMany(Array.from({ length: 25 }, (_, i) => row({ title: `Carl ${i}`, artist: 'Carl' }, 9000 + i, carl)));
    expect((await rows.version()).count).toBe(await counted());
    // A statement that deletes nothing changes nothing; one that deletes several counts them all.
    await db.delete(songs).where(eq(songs.id, -1));
    const carls = await db.select({ id: songs.id }).from(songs).where(eq(songs.ownerId, carl));
    await db.delete(songs).where(
      inArray(
        songs.id,
        carls.slice(0, 5).map((song) => song.id),
      ),
    );
    expect((await rows.version()).count).toBe(await counted());
    // The account's songs go with it (a cascade is a delete like another).
    await db.delete(users).where(eq(users.id, carl));
    expect((await rows.version()).count).toBe(await counted());
    expect((await browse.artists()).map((artist) => artist.name)).not.toContain('Carl');
    // A transaction rolled back leaves the count as it was.
    await db
      .transaction(async (tx) => {
        await tx.delete(songs).where(eq(songs.displayName, 'Hunter'));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await rows.version()).count).toBe(await counted());
    expect(await browse.songs([idOf('Hunter')], ann)).toHaveLength(1);
  });

  it('on the embedded database reads the songs’ version only after their triggers announced a change of it; on PostgreSQL on every call', async () => {
    const { database } = t.app.encore.platform;
    const { db } = database;
    const rows = new SongBrowseRepository(db);
    let versions = 0;
    const counted = Object.assign(Object.create(rows) as SongBrowseRepository, {
      // The version read on its own (snapshot reads it too, inside its transaction: not counted).
      version: (...args: Parameters<SongBrowseRepository['version']>) => {
        if (args.length === 0) versions += 1;
        return rows.version(...args);
      },
    });
    const library = t.app.encore.modules.internals(libraryModule).library;
    const listens = engine === 'pglite';
    const watched = new SongBrowseService({
      repository: counted,
      songs: library,
      ...(listens ? { listenForChanges: (onChange: () => void) => database.listen(SONGS_CHANNEL, onChange) } : {}),
    });
    const queen = async () => (await watched.album(albumKeyOf('queen', 'a night at the opera')))?.songCount;
    const reads = async (change: () => Promise<unknown>) => {
      await watched.artists();
      const before = versions;
      await change();
      const count = await queen();
      await watched.artists();
      return { reads: versions - before, count };
    };
    const nothing = () => Promise.resolve();
    const start = (await queen()) ?? 0;
    expect(await reads(nothing)).toEqual({ reads: listens ? 0 : 2, count: start });
    // A retag, a play count or an update that matches nothing is no change of the version.
    expect(
      (
        await reads(() =>
          db
            .update(songs)
            .set({ genre: 'Opera rock' })
            .where(eq(songs.id, idOf('Bohemian Rhapsody'))),
        )
      ).reads,
    ).toBe(listens ? 0 : 2);
    expect((await reads(() => db.update(songs).set({ missingSince: new Date() }).where(eq(songs.id, -1)))).reads).toBe(listens ? 0 : 2);
    expect((await reads(() => db.delete(songs).where(eq(songs.id, -1)))).reads).toBe(listens ? 0 : 2);
    // Every statement that changes it is seen by the very next call: hidden, shown again, added, deleted.
    const folderSongs = t.app.encore.modules.port(folderSongsPort);
    expect(await reads(() => folderSongs.setMissing([idOf('Love of My Life')], new Date()))).toEqual({ reads: listens ? 1 : 2, count: start - 1 });
    expect(await reads(() => folderSongs.setMissing([idOf('Love of My Life')], null))).toEqual({ reads: listens ? 1 : 2, count: start });
    expect(await reads(() => repository.insertMany([row({ title: 'Seaside Rendezvous', artist: 'Queen', album: 'A Night at the Opera' }, 7000, ann)]))).toEqual(
      {
        reads: listens ? 1 : 2,
        count: start + 1,
      },
    );
    expect(await reads(() => db.delete(songs).where(eq(songs.displayName, 'Seaside Rendezvous')))).toEqual({ reads: listens ? 1 : 2, count: start });
    // A change rolled back announces nothing.
    const rolledBack = () =>
      db
        .transaction(async (tx) => {
          await tx.delete(songs).where(eq(songs.id, idOf('Bohemian Rhapsody')));
          throw new Error('rolled back');
        })
        .catch(() => undefined);
    expect(await reads(rolledBack)).toEqual({ reads: listens ? 0 : 2, count: start });
  });

  it('reads the songs in pages on the embedded database, and again when a song came or went while it read', async () => {
    const { database } = t.app.encore.platform;
    const { db } = database;
    // Pages of 3 songs: the library is read in many queries.
    const rows = new SongBrowseRepository(db, 3);
    const all = await rows.snapshot(0);
    expect((await rows.rowsInPages(0)).map((song) => song.id)).toEqual(all.rows.map((song) => song.id));
    let readings = 0;
    let pagedReads = 0;
    const [doomed] = await db
      .insert(songs)
      .values(row({ title: 'Doomed Single', artist: 'Queen', album: 'Doomed' }, 7100, ann))
      .returning({ id: songs.id });
    const racing = Object.assign(Object.create(rows) as SongBrowseRepository, {
      rowsInPages: async (afterId: number) => {
        pagedReads += 1;
        const read = await rows.rowsInPages(afterId);
        // The first reading has the song; it is deleted before the reading ends.
        if (++readings === 1) await db.delete(songs).where(eq(songs.id, doomed!.id));
        return read;
      },
      snapshot: (afterId: number) => {
        readings += 1;
        return rows.snapshot(afterId);
      },
    });
    const library = t.app.encore.modules.internals(libraryModule).library;
    const listens = engine === 'pglite';
    const racedBrowse = new SongBrowseService({
      repository: racing,
      songs: library,
      ...(listens ? { listenForChanges: (onChange: () => void) => database.listen(SONGS_CHANNEL, onChange) } : {}),
    });
    const doomedAlbum = await racedBrowse.album(albumKeyOf('queen', 'doomed'));
    if (listens) {
      // Paged, the deletion was announced meanwhile: read again, and the song is not in the index.
      expect(pagedReads).toBe(2);
      expect(doomedAlbum).toBeUndefined();
      expect((await racedBrowse.songs([doomed!.id], ann)).map((song) => song.id)).toEqual([]);
    } else {
      // PostgreSQL reads one snapshot (other connections serve meanwhile).
      expect(pagedReads).toBe(0);
      expect(doomedAlbum?.songCount).toBe(1);
      await db.delete(songs).where(eq(songs.id, doomed!.id));
    }
  });

  it('builds its index once for calls at once, and picks up a retag in place once the index is older than its age', async () => {
    const db = t.app.encore.platform.database.db;
    const rows = new SongBrowseRepository(db);
    let snapshots = 0;
    const counted = Object.assign(Object.create(rows) as SongBrowseRepository, {
      snapshot: (afterId: number) => {
        snapshots += 1;
        return rows.snapshot(afterId);
      },
    });
    const library = t.app.encore.modules.internals(libraryModule).library;
    const once = new SongBrowseService({ repository: counted, songs: library });
    const lists = await Promise.all(Array.from({ length: 5 }, () => once.albumList('newest', page(5), { viewerId: ann })));
    expect(snapshots).toBe(1);
    expect(new Set(lists.map((list) => JSON.stringify(list))).size).toBe(1);

    const fresh = new SongBrowseService({ repository: rows, songs: library, maxAgeMs: 0 });
    expect((await fresh.albumsOf(artistKeyOf('queen'))).map((album) => album.name)).toContain(UNKNOWN_ALBUM);
    // A music folder's file retagged: same songs, same ids, so no version changes.
    await db
      .update(songs)
      .set({ album: 'Retagged' })
      .where(eq(songs.id, idOf('Loose Single')));
    await expect.poll(async () => (await fresh.albumsOf(artistKeyOf('queen'))).map((album) => album.name)).toContain('Retagged');
    expect(await fresh.album(albumKeyOf('queen', ''))).toBeUndefined();
  });
});
