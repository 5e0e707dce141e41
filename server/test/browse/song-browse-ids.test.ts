import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlbumDetail, AlbumPage, ArtistDetail } from '@encore/common/browse.contract';
import type { SongListEntry } from '@encore/common/library.contract';
import type { Playlist } from '@encore/common/playlists.contract';
import { users } from '../../src/features/auth/auth.schema.js';
import { LibraryRepository, type NewSong } from '../../src/features/library/library.repository.js';
import { UNKNOWN_ALBUM, UNKNOWN_ARTIST, VARIOUS_ARTISTS } from '../../src/features/library/song-browse.identity.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/** Songs whose cards link an artist and an album (issue 38): an album, a compilation, a featured guest, no tags. */
const SEEDS: (Partial<NewSong> & { title: string })[] = [
  { title: 'Heroes', artist: 'David Bowie', albumArtist: 'David Bowie', album: 'Heroes', trackNumber: 3 },
  { title: 'Sons', artist: 'david bowie', album: 'HEROES', trackNumber: 4 },
  { title: 'Hit one', artist: 'Anna', album: 'Summer Hits', trackNumber: 1 },
  { title: 'Hit two', artist: 'Boris', album: 'Summer Hits', trackNumber: 2 },
  { title: 'Duet', artist: 'Zyx', artists: ['Zyx', 'Guest'], album: 'Sorting', trackNumber: 1 },
  { title: 'Untagged' },
];

describe.each(engines)('the songs carry their artist and album ids on %s', (engine) => {
  let t: TestApp;
  let token: string;
  const get = async <T>(url: string, expectedStatus = 200): Promise<T> => {
    const response = await t.app.inject({ url: `/api${url}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(expectedStatus);
    return response.json<T>();
  };
  const songs = async () => get<SongListEntry[]>('/files?limit=100');
  const songOf = (list: readonly SongListEntry[], title: string) => {
    const found = list.find((song) => song.title === title);
    expect(found, title).toBeDefined();
    return found as SongListEntry;
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await account(t, 'ann');
    const db = t.app.encore.platform.database.db;
    const ownerId = (await db.select({ id: users.id }).from(users))[0]?.id ?? 0;
    await new LibraryRepository(db).insertMany(
      SEEDS.map(({ title, ...tags }, index) => ({
        ownerId,
        displayName: title,
        title,
        fileName: `${index}.mp3`,
        fileType: 'audio/mpeg',
        storageKey: `songs/${index}.mp3`,
        size: 3,
        durationSeconds: 100,
        folderId: 0,
        uploadedAt: new Date(Date.UTC(2024, 0, 1) + index * 60_000),
        ...tags,
      })),
    );
  });
  afterAll(async () => t?.close());

  it('gives every listed song the id of its album page and of its artist page, the ids /api/albums lists', async () => {
    // The song list is the first call: it starts the index's build itself (no browse page or
    // Subsonic call before it), and links its songs once built (a large library's first list
    // goes without links rather than wait).
    await expect.poll(async () => (await songs()).every((song) => song.albumId !== null), { timeout: 20_000 }).toBe(true);
    const albums = (await get<AlbumPage>('/albums?limit=200')).items;
    const list = await songs();
    expect(list).toHaveLength(SEEDS.length);
    for (const song of list) {
      expect(song.albumId, song.title ?? '').toEqual(expect.any(String));
      expect(albums.map((album) => album.id)).toContain(song.albumId);
    }
    const heroes = songOf(list, 'Heroes');
    // The same album however its tags are spelled.
    expect(songOf(list, 'Sons').albumId).toBe(heroes.albumId);
    const album = await get<AlbumDetail>(`/albums/${heroes.albumId}`);
    expect(album).toMatchObject({ name: 'Heroes', artist: { id: heroes.artistId, name: 'David Bowie' }, songCount: 2 });
    // The album page's songs carry the same ids.
    expect(album.songs.map((song) => [song.albumId, song.artistId])).toEqual([
      [heroes.albumId, heroes.artistId],
      [heroes.albumId, heroes.artistId],
    ]);
    expect((await get<ArtistDetail>(`/artists/${heroes.artistId}`)).name).toBe('David Bowie');
  });

  it('links a compilation track to its own artist (who appears on the album) and the one album under Various Artists', async () => {
    const list = await songs();
    const one = songOf(list, 'Hit one');
    const two = songOf(list, 'Hit two');
    expect(one.albumId).toBe(two.albumId);
    expect(one.artistId).not.toBe(two.artistId);
    const album = await get<AlbumDetail>(`/albums/${one.albumId}`);
    expect(album.artist.name).toBe(VARIOUS_ARTISTS);
    const anna = await get<ArtistDetail>(`/artists/${one.artistId}`);
    expect(anna).toMatchObject({ name: 'Anna', albums: [] });
    expect(anna.appearsOn.map((entry) => entry.id)).toEqual([one.albumId]);
  });

  it('links a multi-artist song to its first artist, and an untagged song to the unknown artist and album', async () => {
    const list = await songs();
    expect((await get<ArtistDetail>(`/artists/${songOf(list, 'Duet').artistId}`)).name).toBe('Zyx');
    const untagged = songOf(list, 'Untagged');
    expect((await get<AlbumDetail>(`/albums/${untagged.albumId}`)).name).toBe(UNKNOWN_ALBUM);
    expect((await get<ArtistDetail>(`/artists/${untagged.artistId}`)).name).toBe(UNKNOWN_ARTIST);
  });

  it('gives the ids on a song, in search results, favourites and playlists too', async () => {
    const heroes = songOf(await songs(), 'Heroes');
    const ids = { artistId: heroes.artistId, albumId: heroes.albumId };
    expect(await get<SongListEntry>(`/files/${heroes.id}`)).toMatchObject(ids);
    expect(songOf(await get<SongListEntry[]>('/files?q=heroes'), 'Heroes')).toMatchObject(ids);
    await t.app.inject({ method: 'POST', url: `/api/files/${heroes.id}/like`, headers: bearer(token) });
    expect(await get<SongListEntry[]>('/files?favorites=true')).toEqual([expect.objectContaining({ id: heroes.id, ...ids })]);
    const created = await t.app.inject({ method: 'POST', url: '/api/playlists', headers: bearer(token), payload: { name: 'Mix' } });
    const playlistId = created.json<Playlist>().id;
    const added = await t.app.inject({ method: 'POST', url: `/api/playlists/${playlistId}/songs`, headers: bearer(token), payload: { songId: heroes.id } });
    expect(added.json<Playlist>().songs).toEqual([expect.objectContaining({ id: heroes.id, ...ids })]);
  });

  it("appends an album's songs to a playlist in order, skipping those there; an unknown song or bad list adds none", async () => {
    const heroes = songOf(await songs(), 'Heroes');
    const album = await get<AlbumDetail>(`/albums/${heroes.albumId}`);
    const albumIds = album.songs.map((song) => song.id);
    const playlistId = (await t.app.inject({ method: 'POST', url: '/api/playlists', headers: bearer(token), payload: { name: 'Album' } })).json<Playlist>().id;
    const append = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/playlists/${playlistId}/songs`, headers: bearer(token), payload: payload as object });
    const untagged = songOf(await songs(), 'Untagged').id;
    expect((await append({ songId: untagged })).statusCode).toBe(200);
    const unknown = await append({ songIds: [...albumIds, 999_999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Song not found' });
    for (const payload of [{ songIds: [] }, { songIds: ['x'] }, { songIds: 'x' }]) {
      const bad = await append(payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json<{ message: string }>().message).toMatch(/song/i);
    }
    expect((await get<Playlist>(`/playlists/${playlistId}`)).songs.map((song) => song.id)).toEqual([untagged]);
    const added = await append({ songIds: [untagged, ...albumIds] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<Playlist>().songs.map((song) => song.id)).toEqual([untagged, ...albumIds]);
    // Again: everything is there already, nothing doubles.
    expect((await append({ songIds: albumIds })).json<Playlist>().songs.map((song) => song.id)).toEqual([untagged, ...albumIds]);
  });

  it('gives a song added after the index was read its ids at the next list', async () => {
    await songs();
    const db = t.app.encore.platform.database.db;
    const ownerId = (await db.select({ id: users.id }).from(users))[0]?.id ?? 0;
    await new LibraryRepository(db).insertMany([
      {
        ownerId,
        displayName: 'Late',
        title: 'Late',
        artist: 'David Bowie',
        albumArtist: 'David Bowie',
        album: 'Heroes',
        fileName: 'late.mp3',
        fileType: 'audio/mpeg',
        storageKey: 'songs/late.mp3',
        size: 3,
        folderId: 0,
      },
    ]);
    const list = await songs();
    expect(songOf(list, 'Late').albumId).toBe(songOf(list, 'Heroes').albumId);
  });
});
