import type { AlbumRecord, ArtistRecord } from './library.port.js';
import type { BrowseSongRow } from './song-browse.repository.js';
import {
  albumArtistOf,
  albumKeyOf,
  albumNameOf,
  artistKeyOf,
  CompilationFinder,
  genresOf,
  releaseKeyOf,
  sortKeyOf,
  trackArtistsOf,
  UNKNOWN_ALBUM,
  UNKNOWN_ARTIST,
  VARIOUS_ARTISTS,
} from './song-browse.identity.js';

export { albumKeyOf, artistKeyOf, releaseKeyOf, UNKNOWN_ALBUM, UNKNOWN_ARTIST, VARIOUS_ARTISTS } from './song-browse.identity.js';

export interface ArtistEntry {
  key: string;
  name: string;
  fold: string;
  /** What orders it: its sort tag (else its name) folded, without a leading "The". */
  order: string;
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
  /** UNKNOWN_ALBUM for the songs of the artist that have no album tag. */
  name: string;
  fold: string;
  /** Its name folded without a leading "The". */
  order: string;
  songIds: number[];
  durationSeconds: number;
  years: Map<number, number>;
  genre: string | null;
  /** Each genre of its songs as first spelled, in the order met. */
  genreNames: string[];
  /** Each song's genres, folded (byGenre matches an album that has a song of the genre). */
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
  /** Its own (first track) artist's key, else its album's artist's: the artist a song card names. */
  artistKey: string;
  year: number | null;
  /** Its genres folded (each value of a multi-valued tag). */
  genres: string[];
  /** 0 for an upload, n for the n-th music folder. */
  folder: number;
}

export interface GenreEntry {
  name: string;
  songCount: number;
  albums: Set<AlbumEntry>;
}

/** A track artist's albums filed under another artist (features, compilations). */
export interface AppearanceEntry {
  key: string;
  name: string;
  albums: Set<AlbumEntry>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byFold = (a: { fold: string }, b: { fold: string }) => compare(a.fold, b.fold);
const byOrder = (a: { order: string; fold: string }, b: { order: string; fold: string }) => compare(a.order, b.order) || byFold(a, b);
const byKey = (a: { key: string }, b: { key: string }) => compare(a.key, b.key);

/**
 * Artists, albums and genres of the present songs (see song-browse.identity.ts for who is filed
 * where), names folded as search folds them (case and accents): what the Subsonic API's ID3 model
 * and the web's browse pages list, built once from a narrow read of the songs and extended in
 * place when songs are only added. Each name is spelled as its first song (lowest id) spells it.
 */
export class BrowseIndex {
  readonly artists = new Map<string, ArtistEntry>();
  readonly albums = new Map<string, AlbumEntry>();
  readonly songs = new Map<number, SongEntry>();
  readonly genres = new Map<string, GenreEntry>();
  readonly appearances = new Map<string, AppearanceEntry>();
  /** Present song ids, ascending (rows arrive in id order, and later ones have higher ids). */
  readonly songIds: number[] = [];
  private readonly compilations = new CompilationFinder();
  private readonly sorted = new Map<string, unknown[]>();

  /**
   * Adds songs read in id order, all above the ids already in; `fold` holds every name of theirs
   * folded (namesOf). False when they make a title already filed a compilation or no longer one:
   * the index is then spoiled and must be built anew from every song.
   */
  add(rows: readonly BrowseSongRow[], fold: ReadonlyMap<string, string>): boolean {
    const folded = (value: string) => fold.get(value) ?? value.toLowerCase();
    const changed = this.compilations.add(rows.map((row) => ({ row, albumFold: folded(albumNameOf(row)), artistFold: folded(trackArtistsOf(row)[0] ?? '') })));
    if (changed.size > 0 && this.songIds.length > 0) return false;
    for (const row of rows) this.file(row, folded);
    if (rows.length > 0) this.sorted.clear();
    return true;
  }

  private file(row: BrowseSongRow, folded: (value: string) => string): void {
    const albumName = albumNameOf(row);
    const albumFold = folded(albumName);
    const filedUnder = albumArtistOf(row, row.compilation || this.compilations.isCompilation(albumFold));
    const releaseKey = row.mbzAlbumId ? releaseKeyOf(row.mbzAlbumId) : undefined;
    let album = this.albums.get(releaseKey ?? albumKeyOf(folded(filedUnder.name), albumFold));
    if (!album) {
      const artist = this.artistEntry(filedUnder.name, filedUnder.sort, folded);
      album = {
        key: releaseKey ?? albumKeyOf(artist.fold, albumFold),
        artist,
        name: albumName || UNKNOWN_ALBUM,
        fold: albumFold,
        order: sortKeyOf(albumFold),
        songIds: [],
        durationSeconds: 0,
        years: new Map(),
        genre: null,
        genreNames: [],
        genres: new Set(),
        addedAt: row.uploadedAt.getTime(),
        coverSongId: null,
        folders: new Set(),
        musicBrainzId: null,
      };
      this.albums.set(album.key, album);
      artist.albums.push(album);
    }
    const artist = album.artist;
    album.songIds.push(row.id);
    album.durationSeconds += row.durationSeconds ?? 0;
    if (row.year !== null) album.years.set(row.year, (album.years.get(row.year) ?? 0) + 1);
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
    const songGenres: string[] = [];
    for (const genreName of genresOf(row)) {
      const genreFold = folded(genreName);
      if (songGenres.includes(genreFold)) continue;
      songGenres.push(genreFold);
      album.genre ??= genreName;
      if (!album.genres.has(genreFold)) {
        album.genres.add(genreFold);
        album.genreNames.push(this.genres.get(genreFold)?.name ?? genreName);
      }
      let genre = this.genres.get(genreFold);
      if (!genre) {
        genre = { name: genreName, songCount: 0, albums: new Set() };
        this.genres.set(genreFold, genre);
      }
      genre.songCount += 1;
      genre.albums.add(album);
    }
    for (const name of trackArtistsOf(row)) {
      const key = artistKeyOf(folded(name));
      if (key === artist.key) continue;
      let appearance = this.appearances.get(key);
      if (!appearance) {
        appearance = { key, name, albums: new Set() };
        this.appearances.set(key, appearance);
      }
      appearance.albums.add(album);
    }
    const trackArtist = trackArtistsOf(row)[0];
    const artistKey = trackArtist === undefined ? artist.key : artistKeyOf(folded(trackArtist));
    this.songs.set(row.id, { album, artistKey, year: row.year, genres: songGenres, folder: row.musicFolderId });
    this.songIds.push(row.id);
  }

  private artistEntry(name: string, sort: string, folded: (value: string) => string): ArtistEntry {
    const fold = folded(name);
    const key = artistKeyOf(fold);
    let artist = this.artists.get(key);
    if (!artist) {
      artist = {
        key,
        name: name || UNKNOWN_ARTIST,
        fold,
        order: sortKeyOf(sort ? folded(sort) : fold),
        albums: [],
        songCount: 0,
        coverSongId: null,
        folders: new Set(),
        musicBrainzId: null,
      };
      this.artists.set(key, artist);
    }
    return artist;
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

  /** By sort name (the sort tag, else the name, folded, a leading "The" left out). */
  artistsByName(): ArtistEntry[] {
    return this.memo('artists', () => [...this.artists.values()].sort((a, b) => byOrder(a, b) || byKey(a, b)));
  }

  /** By artist, then album name. */
  albumsByArtist(): AlbumEntry[] {
    return this.memo('albumsByArtist', () => [...this.albums.values()].sort((a, b) => byOrder(a.artist, b.artist) || byOrder(a, b) || byKey(a, b)));
  }

  albumsByName(): AlbumEntry[] {
    return this.memo('albumsByName', () => [...this.albums.values()].sort((a, b) => byOrder(a, b) || byOrder(a.artist, b.artist) || byKey(a, b)));
  }

  albumsNewest(): AlbumEntry[] {
    return this.memo('albumsNewest', () => [...this.albums.values()].sort((a, b) => b.addedAt - a.addedAt || byKey(a, b)));
  }

  /** Albums with a year, oldest first (ties by artist and name). */
  albumsByYear(): AlbumEntry[] {
    return this.memo('albumsByYear', () =>
      [...this.albums.values()]
        .filter((album) => album.years.size > 0)
        .sort((a, b) => (yearOf(a) ?? 0) - (yearOf(b) ?? 0) || byOrder(a.artist, b.artist) || byOrder(a, b) || byKey(a, b)),
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
    genres: album.genreNames,
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
    albumCoverSongIds: artist.albums.flatMap((album) => (album.coverSongId === null ? [] : [album.coverSongId])).slice(0, 4),
    musicBrainzId: artist.musicBrainzId,
  };
}

/** Every name of these rows that the index folds (artists and their sort tags, albums, genres). */
export function namesOf(rows: readonly BrowseSongRow[]): string[] {
  const names = new Set<string>(['', VARIOUS_ARTISTS]);
  for (const row of rows) {
    for (const name of [row.albumArtist, row.albumArtistSort, row.artistSort, row.album]) if (name?.trim()) names.add(name.trim());
    for (const name of trackArtistsOf(row)) names.add(name);
    for (const name of genresOf(row)) names.add(name);
  }
  return [...names];
}
