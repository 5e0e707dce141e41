import path from 'node:path';
import type { AlbumRecord, ArtistRecord, SongBrowse, SongRecord } from '../library/library.port.js';
import type { UserPlaylist, UserPlaylistSummary } from '../playlists/playlists.port.js';
import { ALBUM_PREFIX, ARTIST_PREFIX } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

/** The album and artist keys of songs, for their `albumId`, `artistId` and `parent`. */
export type SongKeys = Map<number, { albumKey: string; artistKey: string }>;

export const albumId = (key: string): string => `${ALBUM_PREFIX}${key}`;
export const artistId = (key: string): string => `${ARTIST_PREFIX}${key}`;

/** A file name's extension, lower case, without the dot ('' when none). */
function suffixOf(fileName: string): string {
  return path.extname(fileName).slice(1).toLowerCase();
}

/** Keeps a path part from reading as folders. */
const pathPart = (text: string): string => text.replace(/[/\\]/g, '_').trim() || 'Unknown';

/** The viewer's listening of songs (their rating, play count, last play), where an endpoint reads it. */
export type SongAnnotations = Map<number, { userRating?: number; playCount?: number; played?: Date }>;

/** A song as Subsonic's `child` (ID3 fields, OpenSubsonic extras); `starred` is when the viewer liked it. */
export function songElement(song: SongRecord, keys: SongKeys, annotations?: SongAnnotations): SubsonicObject {
  const annotation = annotations?.get(song.id);
  const key = keys.get(song.id);
  const title = song.title ?? song.displayName;
  const artist = song.artist ?? song.albumArtist ?? undefined;
  return {
    id: String(song.id),
    parent: key ? albumId(key.albumKey) : undefined,
    isDir: false,
    title,
    album: song.album ?? undefined,
    artist,
    track: song.trackNumber ?? undefined,
    year: song.year ?? undefined,
    genre: song.genre ?? undefined,
    coverArt: song.hasCover ? String(song.id) : undefined,
    size: song.size,
    contentType: song.fileType,
    suffix: suffixOf(song.fileName) || undefined,
    duration: Math.round(song.durationSeconds ?? 0),
    bitRate: song.bitrate ? Math.round(song.bitrate / 1000) : undefined,
    samplingRate: song.sampleRate ?? undefined,
    path: `${pathPart(artist ?? 'Unknown Artist')}/${pathPart(song.album ?? 'Unknown Album')}/${pathPart(song.fileName)}`,
    discNumber: song.discNumber ?? undefined,
    created: song.uploadedAt,
    albumId: key ? albumId(key.albumKey) : undefined,
    artistId: key ? artistId(key.artistKey) : undefined,
    type: 'music',
    mediaType: 'song',
    isVideo: false,
    starred: song.isLiked ? (song.likedAt ?? song.uploadedAt) : undefined,
    displayArtist: artist,
    displayAlbumArtist: song.albumArtist ?? artist,
    albumArtists: song.albumArtist ? [{ name: song.albumArtist }] : undefined,
    userRating: annotation?.userRating,
    playCount: annotations ? (annotation?.playCount ?? 0) : undefined,
    played: annotation?.played,
  };
}

export async function songElements(songs: readonly SongRecord[], browse: Pick<SongBrowse, 'keysOf'>, annotations?: SongAnnotations): Promise<SubsonicObject[]> {
  const keys = songs.length === 0 ? new Map() : await browse.keysOf(songs.map((song) => song.id));
  return songs.map((song) => songElement(song, keys, annotations));
}

/** An album (AlbumID3, with the `child` fields getAlbumList's older clients read). */
export function albumElement(album: AlbumRecord, artistKey: string | undefined, starred?: Date): SubsonicObject {
  const name = album.name || '[Unknown Album]';
  return {
    id: albumId(album.key),
    parent: artistKey ? artistId(artistKey) : undefined,
    isDir: true,
    name,
    title: name,
    album: name,
    artist: album.artist,
    artistId: artistKey ? artistId(artistKey) : undefined,
    coverArt: album.coverSongId === null ? undefined : albumId(album.key),
    songCount: album.songCount,
    duration: Math.round(album.durationSeconds),
    created: album.addedAt,
    year: album.year ?? undefined,
    genre: album.genre ?? undefined,
    starred,
    displayArtist: album.artist,
    mediaType: 'album',
  };
}

/** Albums with their artists' ids, read through the songs that hold their covers. */
export async function albumElements(albums: readonly AlbumRecord[], browse: Pick<SongBrowse, 'keysOf'>, starred?: Date): Promise<SubsonicObject[]> {
  const songIds = albums.flatMap((album) => (album.coverSongId === null ? [] : [album.coverSongId]));
  const keys = songIds.length === 0 ? new Map<number, { albumKey: string; artistKey: string }>() : await browse.keysOf(songIds);
  return albums.map((album) => albumElement(album, album.coverSongId === null ? undefined : keys.get(album.coverSongId)?.artistKey, starred));
}

export function artistElement(artist: ArtistRecord, starred?: Date): SubsonicObject {
  return {
    id: artistId(artist.key),
    name: artist.name || '[Unknown Artist]',
    albumCount: artist.albumCount,
    coverArt: artist.coverSongId === null ? undefined : artistId(artist.key),
    starred,
  };
}

/** The index letter of a name: its first letter without accents, '#' for anything else. */
export function indexLetter(name: string): string {
  const first = name.trim().normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
  return /\p{L}/u.test(first) ? first : '#';
}

/** getArtists: the artists under their first letters, letters in order, '#' last. */
export function artistIndex(artists: readonly ArtistRecord[]): SubsonicObject {
  const groups = new Map<string, SubsonicObject[]>();
  for (const artist of artists) {
    const letter = indexLetter(artist.name);
    const group = groups.get(letter) ?? [];
    group.push(artistElement(artist));
    groups.set(letter, group);
  }
  const letters = [...groups.keys()].sort((a, b) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)));
  return { ignoredArticles: '', index: letters.map((name) => ({ name, artist: groups.get(name) ?? [] })) };
}

export function playlistElement(playlist: UserPlaylistSummary | UserPlaylist, owner: string): SubsonicObject {
  const songs = 'songs' in playlist ? playlist.songs : undefined;
  const songCount = songs ? songs.length : (playlist as UserPlaylistSummary).songCount;
  const duration = songs ? songs.reduce((total, song) => total + Math.round(song.durationSeconds ?? 0), 0) : (playlist as UserPlaylistSummary).durationSeconds;
  const cover = songs?.find((song) => song.hasCover);
  return {
    id: String(playlist.id),
    name: playlist.name,
    comment: playlist.comment ?? undefined,
    owner,
    public: false,
    songCount,
    duration,
    created: playlist.createdAt,
    changed: playlist.updatedAt,
    coverArt: cover ? String(cover.id) : undefined,
    readonly: false,
  };
}
