import { ALBUM_LIST_KINDS, type AlbumListKind, type AlbumRecord, type BrowsedSong } from '../library/library.port.js';
import { albumListByListening, isListeningKind } from './subsonic-album-lists.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { artistElement, artistIndex } from './subsonic-elements.js';
import { folderFilterOf, parseId, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

const isListKind = (kind: string): kind is AlbumListKind => (ALBUM_LIST_KINDS as readonly string[]).includes(kind);

/** Symfonium and others send `query=""` (two quote marks) or `*` to mean everything. */
function searchQuery(query: string | undefined): string {
  const trimmed = (query ?? '').trim();
  if (trimmed === '""' || trimmed === "''" || trimmed === '*') return '';
  return trimmed;
}

/** When the viewer starred each album: its newest like (Encore stars an album when all its songs are liked). */
function starredDates(albums: readonly AlbumRecord[], likedSongs: readonly BrowsedSong[]): Map<string, Date> {
  const likedAt = new Map(likedSongs.flatMap((song) => (song.likedAt ? [[song.id, song.likedAt] as const] : [])));
  const dates = new Map<string, Date>();
  for (const album of albums) {
    let newest: Date | undefined;
    for (const id of album.songIds) {
      const at = likedAt.get(id);
      if (at && (!newest || at > newest)) newest = at;
    }
    if (newest) dates.set(album.key, newest);
  }
  return dates;
}

export function browseEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  const { browse, entries } = deps;
  const folderOf = (params: SubsonicParams) => folderFilterOf(params, deps.musicFolders.length);

  const albumList = async (params: SubsonicParams, userId: number): Promise<SubsonicObject[]> => {
    const kind = params.require('type');
    if (!isListKind(kind)) throw new SubsonicError(0, `Unknown album list type: ${kind}`);
    const page = params.page('size', 'offset', 10);
    const folder = folderOf(params);
    if (isListeningKind(kind)) return albumListByListening(deps, kind, page, userId, folder);
    const options: { viewerId: number; fromYear?: number; toYear?: number; genre?: string; musicFolderId?: number } = { viewerId: userId, ...folder };
    if (kind === 'byYear') {
      options.fromYear = params.int('fromYear') ?? missingYear('fromYear');
      options.toYear = params.int('toYear') ?? missingYear('toYear');
    }
    if (kind === 'byGenre') options.genre = params.require('genre');
    return entries.albums(userId, await browse.albumList(kind, page, options));
  };

  const starred = async (params: SubsonicParams, userId: number): Promise<SubsonicObject> => {
    const found = await browse.starred(userId, folderOf(params));
    const starredArtists = new Map(found.artists.map((artist) => [artist.key, found.albums.filter((album) => album.artistKey === artist.key)]));
    const albumDates = starredDates(found.albums, found.songs);
    const { songs, albums } = await entries.elements(userId, { songs: found.songs, albums: found.albums, starredAlbums: albumDates });
    const artistDate = (key: string) =>
      (starredArtists.get(key) ?? []).reduce<Date | undefined>((newest, album) => {
        const at = albumDates.get(album.key);
        return at && (!newest || at > newest) ? at : newest;
      }, undefined);
    return { artist: found.artists.map((artist) => artistElement(artist, artistDate(artist.key))), album: albums, song: songs };
  };

  const search = async (params: SubsonicParams, userId: number): Promise<SubsonicObject> => {
    const found = await browse.search(
      searchQuery(params.get('query')),
      {
        artists: params.page('artistCount', 'artistOffset', 20),
        albums: params.page('albumCount', 'albumOffset', 20),
        songs: params.page('songCount', 'songOffset', 20),
      },
      userId,
      folderOf(params),
    );
    const { songs, albums } = await entries.elements(userId, { songs: found.songs, albums: found.albums });
    return { artist: found.artists.map((artist) => artistElement(artist)), album: albums, song: songs };
  };

  return [
    { name: 'getArtists', handle: async ({ params }) => ({ artists: artistIndex(await browse.artists(folderOf(params))) }) },
    {
      name: 'getArtist',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        const artist = id.kind === 'artist' ? await browse.artist(id.key) : undefined;
        if (!artist) throw notFound('Artist');
        return { artist: { ...artistElement(artist), album: await entries.albums(user.id, await browse.albumsOf(artist.key)) } };
      },
    },
    {
      name: 'getAlbum',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        const album = id.kind === 'album' ? await browse.album(id.key) : undefined;
        if (!album) throw notFound('Album');
        const records = await browse.albumSongs(album.key, user.id);
        const { songs, albums } = await entries.elements(user.id, { songs: records, albums: [album] });
        return { album: { ...albums[0], song: songs } };
      },
    },
    {
      // Folder browsing (DSub, older clients) over the same model: artists, then their albums, then songs.
      name: 'getIndexes',
      handle: async ({ params }) => {
        const { index } = artistIndex(await browse.artists(folderOf(params)));
        return { indexes: { ignoredArticles: '', lastModified: 0, index } };
      },
    },
    {
      name: 'getMusicDirectory',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        if (id.kind === 'artist') {
          const artist = await browse.artist(id.key);
          if (!artist) throw notFound('Directory');
          return { directory: { id: artistElement(artist)['id'], name: artist.name, child: await entries.albums(user.id, await browse.albumsOf(artist.key)) } };
        }
        const album = id.kind === 'album' ? await browse.album(id.key) : undefined;
        if (!album) throw notFound('Directory');
        const { songs, albums } = await entries.elements(user.id, { songs: await browse.albumSongs(album.key, user.id), albums: [album] });
        const element = albums[0];
        return { directory: { id: element?.['id'], parent: element?.['parent'], name: element?.['name'], child: songs } };
      },
    },
    {
      name: 'getSong',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        const [song] = id.kind === 'song' ? await entries.songsByIds(user.id, [id.id]) : [];
        if (!song) throw notFound('Song');
        return { song };
      },
    },
    {
      name: 'getGenres',
      handle: async () => ({
        genres: { genre: (await browse.genres()).map((genre) => ({ songCount: genre.songCount, albumCount: genre.albumCount, value: genre.name })) },
      }),
    },
    { name: 'getAlbumList2', handle: async ({ params, user }) => ({ albumList2: { album: await albumList(params, user.id) } }) },
    { name: 'getAlbumList', handle: async ({ params, user }) => ({ albumList: { album: await albumList(params, user.id) } }) },
    {
      name: 'getRandomSongs',
      handle: async ({ params, user }) => {
        const options: { size: number; genre?: string; fromYear?: number; toYear?: number; musicFolderId?: number } = {
          size: params.page('size', 'offset', 10).count,
          ...folderOf(params),
        };
        const genre = params.get('genre');
        const fromYear = params.int('fromYear');
        const toYear = params.int('toYear');
        if (genre) options.genre = genre;
        if (fromYear !== undefined) options.fromYear = fromYear;
        if (toYear !== undefined) options.toYear = toYear;
        return { randomSongs: { song: await entries.songs(user.id, await browse.randomSongs(options, user.id)) } };
      },
    },
    {
      name: 'getSongsByGenre',
      handle: async ({ params, user }) => {
        const genre = params.require('genre');
        const songs = await browse.songsByGenre(genre, params.page('count', 'offset', 10), user.id, folderOf(params));
        return { songsByGenre: { song: await entries.songs(user.id, songs) } };
      },
    },
    { name: 'search3', handle: async ({ params, user }) => ({ searchResult3: await search(params, user.id) }) },
    { name: 'search2', handle: async ({ params, user }) => ({ searchResult2: await search(params, user.id) }) },
    { name: 'getStarred2', handle: async ({ params, user }) => ({ starred2: await starred(params, user.id) }) },
    { name: 'getStarred', handle: async ({ params, user }) => ({ starred: await starred(params, user.id) }) },
    { name: 'star', handle: async (call) => star(deps, call.params, call.user.id, true) },
    { name: 'unstar', handle: async (call) => star(deps, call.params, call.user.id, false) },
  ];
}

function missingYear(name: string): never {
  throw missingParameter(name);
}

/** star / unstar: songs by `id`; an album (`albumId`, or an album's id in `id`) or artist stars all its songs, the web app's favourites. */
async function star(deps: SubsonicDeps, params: SubsonicParams, userId: number, liked: boolean): Promise<SubsonicObject> {
  const ids = [...params.all('id'), ...params.all('albumId'), ...params.all('artistId')];
  if (ids.length === 0) throw missingParameter('id');
  const songIds = new Set<number>();
  for (const raw of ids) {
    const id = parseId(raw);
    if (id.kind === 'song') songIds.add(id.id);
    else if (id.kind === 'album') {
      if (!(await deps.browse.album(id.key))) throw notFound('Album');
      for (const song of await deps.browse.albumSongs(id.key, userId)) songIds.add(song.id);
    } else if (id.kind === 'artist') {
      if (!(await deps.browse.artist(id.key))) throw notFound('Artist');
      for (const album of await deps.browse.albumsOf(id.key)) for (const song of await deps.browse.albumSongs(album.key, userId)) songIds.add(song.id);
    } else throw notFound('Song');
  }
  for (const songId of songIds) await deps.catalogue.setLiked(songId, userId, liked);
  return {};
}
