import { createHash } from 'node:crypto';
import type { AlbumRecord, ArtistRecord } from './library.port.js';
import type { BrowseSongRow } from './song-browse.repository.js';

/**
 * The name of the artist of songs with neither an album artist nor an artist tag. Its key is that
 * of the empty name, so it stays the same whatever this name says.
 */
export const UNKNOWN_ARTIST = 'Unknown Artist';

export interface ArtistEntry {
  key: string;
  name: string;
  fold: string;
  albums: AlbumEntry[];
  songCount: number;
  coverSongId: number | null;
  /** The libraries its songs are in (0 the uploads, n the n-th music folder). */
  folders: Set<number>;
  /** The first MusicBrainz artist id its songs carry. */
  musicBrainzId: string | null;
}

export interface AlbumEntry {
  key: string;
  artist: ArtistEntry;
  /** '' for the songs of the artist that have no album tag (the interface's choice: clients show an empty name). */
  name: string;
  fold: string;
  songIds: number[];
  durationSeconds: number;
  years: Map<number, number>;
  genre: string | null;
  /** Each song's genre, folded (byGenre matches an album that has a song of the genre). */
  genres: Set<string>;
  addedAt: number;
  coverSongId: number | null;
  /** The libraries its songs are in (0 the uploads, n the n-th music folder). */
  folders: Set<number>;
  /** The first MusicBrainz release id its songs carry. */
  musicBrainzId: string | null;
}

export interface SongEntry {
  album: AlbumEntry;
  year: number | null;
  /** The genre folded, or null. */
  genre: string | null;
  /** 0 for an upload, n for the n-th music folder. */
  folder: number;
}

export interface GenreEntry {
  name: string;
  songCount: number;
  albums: Set<AlbumEntry>;
}

/**
 * A key of names folded: 16 bytes of a sha256 in base64url (URL-safe, 22 characters). The names
 * are joined by NUL, which no PostgreSQL text holds, and artist and album keys hash differently.
 */
const hashKey = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);
export const artistKeyOf = (artistFold: string) => hashKey(`artist\0${artistFold}`);
export const albumKeyOf = (artistFold: string, albumFold: string) => hashKey(`album\0${artistFold}\0${albumFold}`);

/** The artist a song is filed under: its album artist, else its artist, else none (''). */
export const artistNameOf = (row: Pick<BrowseSongRow, 'albumArtist' | 'artist'>) => row.albumArtist?.trim() || row.artist?.trim() || '';
export const albumNameOf = (row: Pick<BrowseSongRow, 'album'>) => row.album?.trim() ?? '';
export const genreNameOf = (row: Pick<BrowseSongRow, 'genre'>) => row.genre?.trim() || null;

const byFold = (a: { fold: string }, b: { fold: string }) => (a.fold < b.fold ? -1 : a.fold > b.fold ? 1 : 0);
const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Artists, albums and genres of the present songs, grouped by their names folded as search folds
 * them (case and accents): what the Subsonic API's ID3 model lists, built once from a narrow read
 * of the songs and extended in place when songs are only added. Each name is spelled as its first
 * song (lowest id) spells it.
 */
export class BrowseIndex {
  readonly artists = new Map<string, ArtistEntry>();
  readonly albums = new Map<string, AlbumEntry>();
  readonly songs = new Map<number, SongEntry>();
  readonly genres = new Map<string, GenreEntry>();
  /** Present song ids, ascending (rows arrive in id order, and later ones have higher ids). */
  readonly songIds: number[] = [];
  private readonly sorted = new Map<string, unknown[]>();

  /** Adds songs read in id order, all above the ids already in; `fold` holds every name of theirs folded. */
  add(rows: readonly BrowseSongRow[], fold: ReadonlyMap<string, string>): void {
    const folded = (value: string) => fold.get(value) ?? value.toLowerCase();
    for (const row of rows) {
      const artistName = artistNameOf(row);
      const artistFold = folded(artistName);
      const artistKey = artistKeyOf(artistFold);
      let artist = this.artists.get(artistKey);
      if (!artist) {
        artist = {
          key: artistKey,
          name: artistName || UNKNOWN_ARTIST,
          fold: artistFold,
          albums: [],
          songCount: 0,
          coverSongId: null,
          folders: new Set(),
          musicBrainzId: null,
        };
        this.artists.set(artistKey, artist);
      }
      const albumName = albumNameOf(row);
      const albumFold = folded(albumName);
      const albumKey = albumKeyOf(artistFold, albumFold);
      let album = this.albums.get(albumKey);
      if (!album) {
        album = {
          key: albumKey,
          artist,
          name: albumName,
          fold: albumFold,
          songIds: [],
          durationSeconds: 0,
          years: new Map(),
          genre: null,
          genres: new Set(),
          addedAt: row.uploadedAt.getTime(),
          coverSongId: null,
          folders: new Set(),
          musicBrainzId: null,
        };
        this.albums.set(albumKey, album);
        artist.albums.push(album);
      }
      const genreName = genreNameOf(row);
      const genreFold = genreName === null ? null : folded(genreName);
      album.songIds.push(row.id);
      album.durationSeconds += row.durationSeconds ?? 0;
      if (row.year !== null) album.years.set(row.year, (album.years.get(row.year) ?? 0) + 1);
      album.genre ??= genreName;
      album.addedAt = Math.min(album.addedAt, row.uploadedAt.getTime());
      if (row.hasCover) {
        album.coverSongId ??= row.id;
        artist.coverSongId ??= row.id;
      }
      artist.songCount += 1;
      album.folders.add(row.musicFolderId);
      album.musicBrainzId ??= row.mbzAlbumId;
      artist.musicBrainzId ??= row.mbzArtistId;
      artist.folders.add(row.musicFolderId);
      if (genreName !== null && genreFold !== null) {
        album.genres.add(genreFold);
        let genre = this.genres.get(genreFold);
        if (!genre) {
          genre = { name: genreName, songCount: 0, albums: new Set() };
          this.genres.set(genreFold, genre);
        }
        genre.songCount += 1;
        genre.albums.add(album);
      }
      this.songs.set(row.id, { album, year: row.year, genre: genreFold, folder: row.musicFolderId });
      this.songIds.push(row.id);
    }
    if (rows.length > 0) this.sorted.clear();
  }

  /** A list in an order, sorted once per change of the index. */
  memo<T>(name: string, make: () => T[]): T[] {
    let list = this.sorted.get(name) as T[] | undefined;
    if (!list) {
      list = make();
      this.sorted.set(name, list);
    }
    return list;
  }

  /** `list` narrowed to a library (see FolderFilter), kept until the index changes. */
  inFolder<T extends { folders: Set<number> }>(name: string, list: T[], folder: number | undefined): T[] {
    if (folder === undefined) return list;
    return this.memo(`${name}@${folder}`, () => list.filter((entry) => entry.folders.has(folder)));
  }

  /** The present song ids, ascending, of a library (all of them when `folder` is undefined). */
  songIdsIn(folder: number | undefined): number[] {
    if (folder === undefined) return this.songIds;
    return this.memo(`songIds@${folder}`, () => this.songIds.filter((id) => this.songs.get(id)?.folder === folder));
  }

  artistsByName(): ArtistEntry[] {
    return this.memo('artists', () => [...this.artists.values()].sort((a, b) => byFold(a, b) || byKey(a, b)));
  }

  /** By artist, then album name (folded). */
  albumsByArtist(): AlbumEntry[] {
    return this.memo('albumsByArtist', () => [...this.albums.values()].sort((a, b) => byFold(a.artist, b.artist) || byFold(a, b) || byKey(a, b)));
  }

  albumsByName(): AlbumEntry[] {
    return this.memo('albumsByName', () => [...this.albums.values()].sort((a, b) => byFold(a, b) || byFold(a.artist, b.artist) || byKey(a, b)));
  }

  albumsNewest(): AlbumEntry[] {
    return this.memo('albumsNewest', () => [...this.albums.values()].sort((a, b) => b.addedAt - a.addedAt || byKey(a, b)));
  }

  /** Albums with a year, oldest first (ties by artist and name). */
  albumsByYear(): AlbumEntry[] {
    return this.memo('albumsByYear', () =>
      [...this.albums.values()]
        .filter((album) => album.years.size > 0)
        .sort((a, b) => (yearOf(a) ?? 0) - (yearOf(b) ?? 0) || byFold(a.artist, b.artist) || byFold(a, b) || byKey(a, b)),
    );
  }

  genresByName(): (GenreEntry & { fold: string })[] {
    return this.memo('genres', () => [...this.genres.entries()].map(([fold, genre]) => ({ ...genre, fold })).sort(byFold));
  }
}

/** The album's most common year (the latest of those as common), or null. */
export function yearOf(album: AlbumEntry): number | null {
  let best: number | null = null;
  let bestCount = 0;
  for (const [year, count] of album.years) {
    if (count > bestCount || (count === bestCount && best !== null && year > best)) {
      best = year;
      bestCount = count;
    }
  }
  return best;
}

export function toAlbumRecord(album: AlbumEntry): AlbumRecord {
  return {
    key: album.key,
    artist: album.artist.name,
    name: album.name,
    songCount: album.songIds.length,
    durationSeconds: album.durationSeconds,
    year: yearOf(album),
    genre: album.genre,
    addedAt: new Date(album.addedAt),
    coverSongId: album.coverSongId,
    artistKey: album.artist.key,
    songIds: album.songIds,
    musicBrainzId: album.musicBrainzId,
  };
}

export function toArtistRecord(artist: ArtistEntry): ArtistRecord {
  return {
    key: artist.key,
    name: artist.name,
    albumCount: artist.albums.length,
    songCount: artist.songCount,
    coverSongId: artist.coverSongId,
    musicBrainzId: artist.musicBrainzId,
  };
}

/** Every name of these rows that the index folds (artists, albums, genres). */
export function namesOf(rows: readonly BrowseSongRow[]): string[] {
  const names = new Set<string>();
  for (const row of rows) {
    names.add(artistNameOf(row));
    names.add(albumNameOf(row));
    const genre = genreNameOf(row);
    if (genre !== null) names.add(genre);
  }
  return [...names];
}
