import { ALBUM_LIST_KINDS, type AlbumListKind, type AlbumRecord, type SongRecord } from '../library/library.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { albumElements, artistElement, artistIndex, songElements } from './subsonic-elements.js';
import { parseId, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

const isListKind = (kind: string): kind is AlbumListKind => (ALBUM_LIST_KINDS as readonly string[]).includes(kind);

/** Symfonium and others send `query=""` (two quote marks) or `*` to mean everything. */
function searchQuery(query: string | undefined): string {
  const trimmed = (query ?? '').trim();
  if (trimmed === '""' || trimmed === "''" || trimmed === '*') return '';
  return trimmed;
}

export function browseEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  const { browse, catalogue } = deps;
  const songs = (records: readonly SongRecord[]) => songElements(records, browse);
  const albums = (records: readonly AlbumRecord[]) => albumElements(records, browse);

  const albumList = async (params: SubsonicParams, viewerId: number): Promise<SubsonicObject[]> => {
    const kind = params.require('type');
    if (!isListKind(kind)) throw new SubsonicError(0, `Unknown album list type: ${kind}`);
    const page = params.page('size', 'offset', 10);
    const options: { viewerId: number; fromYear?: number; toYear?: number; genre?: string } = { viewerId };
    if (kind === 'byYear') {
      options.fromYear = params.int('fromYear') ?? missingYear('fromYear');
      options.toYear = params.int('toYear') ?? missingYear('toYear');
    }
    if (kind === 'byGenre') options.genre = params.require('genre');
    return albums(await browse.albumList(kind, page, options));
  };

  const starred = async (viewerId: number): Promise<SubsonicObject> => {
    const found = await browse.starred(viewerId);
    return { artist: found.artists.map((artist) => artistElement(artist)), album: await albums(found.albums), song: await songs(found.songs) };
  };

  const search = async (params: SubsonicParams, viewerId: number): Promise<SubsonicObject> => {
    const found = await browse.search(
      searchQuery(params.get('query')),
      {
        artists: params.page('artistCount', 'artistOffset', 20),
        albums: params.page('albumCount', 'albumOffset', 20),
        songs: params.page('songCount', 'songOffset', 20),
      },
      viewerId,
    );
    return { artist: found.artists.map((artist) => artistElement(artist)), album: await albums(found.albums), song: await songs(found.songs) };
  };

  return [
    { name: 'getArtists', handle: async () => ({ artists: artistIndex(await browse.artists()) }) },
    {
      name: 'getArtist',
      handle: async ({ params }) => {
        const id = parseId(params.require('id'));
        const artist = id.kind === 'artist' ? await browse.artist(id.key) : undefined;
        if (!artist) throw notFound('Artist');
        return { artist: { ...artistElement(artist), album: await albums(await browse.albumsOf(artist.key)) } };
      },
    },
    {
      name: 'getAlbum',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        const album = id.kind === 'album' ? await browse.album(id.key) : undefined;
        if (!album) throw notFound('Album');
        const records = await browse.albumSongs(album.key, user.id);
        const elements = await songs(records);
        const [element] = await albums([album]);
        const artistId = element?.['artistId'] ?? elements[0]?.['artistId'];
        return { album: { ...element, artistId, song: elements } };
      },
    },
    {
      // Folder browsing (DSub, older clients) over the same model: artists, then their albums, then songs.
      name: 'getIndexes',
      handle: async () => {
        const { index } = artistIndex(await browse.artists());
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
          return { directory: { id: artistElement(artist)['id'], name: artist.name, child: await albums(await browse.albumsOf(artist.key)) } };
        }
        const album = id.kind === 'album' ? await browse.album(id.key) : undefined;
        if (!album) throw notFound('Directory');
        const [element] = await albums([album]);
        return {
          directory: {
            id: element?.['id'],
            parent: element?.['parent'],
            name: element?.['name'],
            child: await songs(await browse.albumSongs(album.key, user.id)),
          },
        };
      },
    },
    {
      name: 'getSong',
      handle: async ({ params, user }) => {
        const id = parseId(params.require('id'));
        if (id.kind !== 'song') throw notFound('Song');
        const [element] = await songs([await catalogue.get(id.id, user.id)]);
        return { song: element };
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
        const options: { size: number; genre?: string; fromYear?: number; toYear?: number } = { size: params.page('size', 'offset', 10).count };
        const genre = params.get('genre');
        const fromYear = params.int('fromYear');
        const toYear = params.int('toYear');
        if (genre) options.genre = genre;
        if (fromYear !== undefined) options.fromYear = fromYear;
        if (toYear !== undefined) options.toYear = toYear;
        return { randomSongs: { song: await songs(await browse.randomSongs(options, user.id)) } };
      },
    },
    {
      name: 'getSongsByGenre',
      handle: async ({ params, user }) => {
        const genre = params.require('genre');
        return { songsByGenre: { song: await songs(await browse.songsByGenre(genre, params.page('count', 'offset', 10), user.id)) } };
      },
    },
    { name: 'search3', handle: async ({ params, user }) => ({ searchResult3: await search(params, user.id) }) },
    { name: 'search2', handle: async ({ params, user }) => ({ searchResult2: await search(params, user.id) }) },
    { name: 'getStarred2', handle: async ({ user }) => ({ starred2: await starred(user.id) }) },
    { name: 'getStarred', handle: async ({ user }) => ({ starred: await starred(user.id) }) },
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
