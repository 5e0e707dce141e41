import path from 'node:path';
import type { AlbumRecord, ArtistRecord, BrowsedSong } from '../library/library.port.js';
import type { SongListening } from '../listening/listening.port.js';
import type { UserPlaylist, UserPlaylistSummary } from '../playlists/playlists.port.js';
import { ALBUM_PREFIX, ARTIST_PREFIX } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

export const albumId = (key: string): string => `${ALBUM_PREFIX}${key}`;
export const artistId = (key: string): string => `${ARTIST_PREFIX}${key}`;

/** A file name's extension, lower case, without the dot ('' when none). */
function suffixOf(fileName: string): string {
  return path.extname(fileName).slice(1).toLowerCase();
}

/** Keeps a path part from reading as folders. */
const pathPart = (text: string): string => text.replace(/[/\\]/g, '_').trim() || 'Unknown';

/** The viewer's listening of songs (plays, last play, rating), by song id; a song absent was neither played nor rated. */
export type Listenings = ReadonlyMap<number, SongListening>;

/** OpenSubsonic's replayGain of a song: gains in dB to -18 LUFS (ReplayGain 2.0), peaks linear. */
export type ReplayGainElement = {
  trackGain?: number;
  trackPeak?: number;
  albumGain?: number;
  albumPeak?: number;
};

/**
 * A song as Subsonic's `child` (ID3 fields, OpenSubsonic extras); `starred` is when the viewer
 * liked it; `userRating`, `playCount` and `played` the viewer's own.
 */
export function songElement(song: BrowsedSong, listenings: Listenings, replayGain?: ReplayGainElement): SubsonicObject {
  const listening = listenings.get(song.id);
  const title = song.title ?? song.displayName;
  const artist = song.artist ?? song.albumArtist ?? undefined;
  return {
    id: String(song.id),
    parent: albumId(song.albumKey),
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
    albumId: albumId(song.albumKey),
    artistId: artistId(song.artistKey),
    type: 'music',
    mediaType: 'song',
    isVideo: false,
    starred: song.likedAt,
    userRating: listening?.rating,
    playCount: listening?.playCount ?? 0,
    played: listening?.lastPlayedAt,
    musicBrainzId: song.musicBrainzId ?? undefined,
    displayArtist: artist,
    displayAlbumArtist: song.albumArtist ?? artist,
    // A song with an album artist is filed under it: its artistId is the album artist's.
    albumArtists: song.albumArtist ? [{ id: artistId(song.artistKey), name: song.albumArtist }] : undefined,
    // Always there (OpenSubsonic), empty until the analysis has measured the song.
    replayGain: replayGain ?? {},
  };
}

/** An album's plays (their sum), last play and the viewer's rating (the mean of their rated songs, rounded). */
export function albumListening(album: Pick<AlbumRecord, 'songIds'>, listenings: Listenings): { playCount: number; played?: Date; userRating?: number } {
  let playCount = 0;
  let played: Date | undefined;
  let ratings = 0;
  let rated = 0;
  for (const id of album.songIds) {
    const listening = listenings.get(id);
    if (!listening) continue;
    playCount += listening.playCount;
    if (listening.lastPlayedAt && (!played || listening.lastPlayedAt > played)) played = listening.lastPlayedAt;
    if (listening.rating !== undefined) {
      ratings += listening.rating;
      rated += 1;
    }
  }
  return { playCount, played, userRating: rated === 0 ? undefined : Math.round(ratings / rated) };
}

/** An album (AlbumID3, with the `child` fields getAlbumList's older clients read). */
export function albumElement(album: AlbumRecord, listenings: Listenings, starred?: Date): SubsonicObject {
  const name = album.name || '[Unknown Album]';
  const { playCount, played, userRating } = albumListening(album, listenings);
  return {
    id: albumId(album.key),
    parent: artistId(album.artistKey),
    isDir: true,
    name,
    title: name,
    album: name,
    artist: album.artist,
    artistId: artistId(album.artistKey),
    coverArt: album.coverSongId === null ? undefined : albumId(album.key),
    songCount: album.songCount,
    duration: Math.round(album.durationSeconds),
    playCount,
    played,
    userRating,
    created: album.addedAt,
    year: album.year ?? undefined,
    genre: album.genre ?? undefined,
    starred,
    musicBrainzId: album.musicBrainzId ?? undefined,
    displayArtist: album.artist,
    mediaType: 'album',
  };
}

export function artistElement(artist: ArtistRecord, starred?: Date): SubsonicObject {
  return {
    id: artistId(artist.key),
    name: artist.name || '[Unknown Artist]',
    albumCount: artist.albumCount,
    coverArt: artist.coverSongId === null ? undefined : artistId(artist.key),
    starred,
    musicBrainzId: artist.musicBrainzId ?? undefined,
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
