import type { SimilarSongs } from '../discovery/discovery.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { artistElement } from './subsonic-elements.js';
import { notFound } from './subsonic-errors.js';
import { MAX_PAGE, parseId, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

/** How many similar songs an artist's neighbours are read from (their artists, nearest first). */
const ARTIST_NEIGHBOUR_SONGS = 200;

/**
 * Similar songs and similar artists from Encore's own sonic analysis (no outside service):
 * getSimilarSongs(2) from a song, an album or an artist; getArtistInfo(2) with the artists of the
 * songs nearest the artist's, and no biography; getAlbumInfo(2) with the album's MusicBrainz id.
 */
export function similarEndpoints(deps: SubsonicDeps, similar: SimilarSongs): SubsonicEndpoint[] {
  const { browse, catalogue } = deps;

  /** The songs an id stands for: the song, an album's songs, an artist's songs (error 70 when none of them exists). */
  const seedsOf = async (id: string, viewerId: number, what: string): Promise<number[]> => {
    const parsed = parseId(id);
    if (parsed.kind === 'song') return [(await catalogue.get(parsed.id, viewerId)).id];
    if (parsed.kind === 'album' && (await browse.album(parsed.key))) return (await browse.albumSongs(parsed.key, viewerId)).map((song) => song.id);
    if (parsed.kind === 'artist' && (await browse.artist(parsed.key))) return artistSongIds(parsed.key, viewerId);
    throw notFound(what);
  };

  const artistSongIds = async (artistKey: string, viewerId: number): Promise<number[]> => {
    const albums = await browse.albumsOf(artistKey);
    const songs = await Promise.all(albums.map((album) => browse.albumSongs(album.key, viewerId)));
    return songs.flat().map((song) => song.id);
  };

  const similarSongs = async (params: SubsonicParams, viewerId: number): Promise<SubsonicObject> => {
    const seeds = await seedsOf(params.require('id'), viewerId, 'Song');
    const count = Math.min(Math.max(params.int('count', 50), 0), MAX_PAGE);
    // The ranking's order (nearest first), gone songs left out.
    return { song: await deps.entries.songsByIds(viewerId, await similar.similarToAny(seeds, count)) };
  };

  const artistInfo = async (params: SubsonicParams, viewerId: number): Promise<SubsonicObject> => {
    const parsed = parseId(params.require('id'));
    const artist = parsed.kind === 'artist' ? await browse.artist(parsed.key) : undefined;
    if (!artist) throw notFound('Artist');
    const count = Math.min(Math.max(params.int('count', 20), 0), MAX_PAGE);
    const nearest = count === 0 ? [] : await similar.similarToAny(await artistSongIds(artist.key, viewerId), ARTIST_NEIGHBOUR_SONGS);
    const keys = nearest.length === 0 ? new Map<number, { artistKey: string }>() : await browse.keysOf(nearest);
    const artistKeys: string[] = [];
    for (const id of nearest) {
      const key = keys.get(id)?.artistKey;
      if (key !== undefined && key !== artist.key && !artistKeys.includes(key)) artistKeys.push(key);
      if (artistKeys.length >= count) break;
    }
    const artists = await Promise.all(artistKeys.map((key) => browse.artist(key)));
    return { biography: '', similarArtist: artists.flatMap((found) => (found ? [artistElement(found)] : [])) };
  };

  /**
   * getAlbumInfo(2) of an album or of a song's album: its MusicBrainz release id when tagged, and
   * no notes (Encore asks no outside service for album notes or images; covers are getCoverArt's).
   */
  const albumInfo = async (params: SubsonicParams, viewerId: number): Promise<SubsonicObject> => {
    const parsed = parseId(params.require('id'));
    let albumKey: string | undefined;
    if (parsed.kind === 'album') albumKey = parsed.key;
    else if (parsed.kind === 'song') albumKey = (await browse.keysOf([(await catalogue.get(parsed.id, viewerId)).id])).get(parsed.id)?.albumKey;
    const album = albumKey === undefined ? undefined : await browse.album(albumKey);
    if (!album) throw notFound('Album');
    return { notes: '', musicBrainzId: album.musicBrainzId ?? undefined };
  };

  return [
    { name: 'getAlbumInfo', handle: async ({ params, user }) => ({ albumInfo: await albumInfo(params, user.id) }) },
    { name: 'getAlbumInfo2', handle: async ({ params, user }) => ({ albumInfo: await albumInfo(params, user.id) }) },
    { name: 'getSimilarSongs', handle: async ({ params, user }) => ({ similarSongs: await similarSongs(params, user.id) }) },
    { name: 'getSimilarSongs2', handle: async ({ params, user }) => ({ similarSongs2: await similarSongs(params, user.id) }) },
    { name: 'getArtistInfo', handle: async ({ params, user }) => ({ artistInfo: await artistInfo(params, user.id) }) },
    { name: 'getArtistInfo2', handle: async ({ params, user }) => ({ artistInfo2: await artistInfo(params, user.id) }) },
  ];
}
