import { createHash } from 'node:crypto';
import type { BrowseSongRow } from './song-browse.repository.js';

/**
 * Who and what a song is filed under in the browse model (artists, albums, genres), the one
 * model the web API and the Subsonic API both list:
 * - an album is its MusicBrainz release id when tagged, else its album artist (else its track
 *   artist) and title, names folded (case and accents);
 * - a compilation (the compilation flag, or one title whose untagged-album-artist tracks have
 *   different artists and never share a disc and track number) is one album under Various Artists;
 * - songs without tags go under the unknown artist and album, never an empty name.
 */
export const UNKNOWN_ARTIST = 'Unknown Artist';
export const UNKNOWN_ALBUM = 'Unknown Album';
export const VARIOUS_ARTISTS = 'Various Artists';

/**
 * A key of names folded: 16 bytes of a sha256 in base64url (URL-safe, 22 characters). The names
 * are joined by NUL, which no PostgreSQL text holds, and artist and album keys hash differently.
 */
const hashKey = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);
export const artistKeyOf = (artistFold: string) => hashKey(`artist\0${artistFold}`);
export const albumKeyOf = (artistFold: string, albumFold: string) => hashKey(`album\0${artistFold}\0${albumFold}`);
/** An album tagged with a MusicBrainz release id is that release, whatever its names say. */
export const releaseKeyOf = (musicBrainzAlbumId: string) => hashKey(`release\0${musicBrainzAlbumId.toLowerCase()}`);

const clean = (value: string | null | undefined) => value?.trim() || '';

/** Each track artist of a song (every value of a multi-valued tag), else its artist tag. */
export function trackArtistsOf(row: Pick<BrowseSongRow, 'artist' | 'artists'>): string[] {
  const values = (row.artists ?? []).map(clean).filter((value) => value !== '');
  if (values.length > 0) return values;
  const single = clean(row.artist);
  return single === '' ? [] : [single];
}

/** The song's own artist name for filing (first track artist), '' when it has none. */
export const primaryArtistOf = (row: Pick<BrowseSongRow, 'artist' | 'artists'>) => trackArtistsOf(row)[0] ?? '';

/** Each genre of a song (every value of a multi-valued tag), else its genre tag. */
export function genresOf(row: Pick<BrowseSongRow, 'genre' | 'genres'>): string[] {
  const values = (row.genres ?? []).map(clean).filter((value) => value !== '');
  if (values.length > 0) return values;
  const single = clean(row.genre);
  return single === '' ? [] : [single];
}

export const albumNameOf = (row: Pick<BrowseSongRow, 'album'>) => clean(row.album);

/**
 * The artist an album is filed under: its album artist; Various Artists for a compilation
 * (flagged, or found so by CompilationFinder); else its track artist; else none ('').
 * `sort` is the sort tag that goes with that name, if any.
 */
export function albumArtistOf(row: BrowseSongRow, compilation: boolean): { name: string; sort: string } {
  const albumArtist = clean(row.albumArtist);
  if (albumArtist !== '') return { name: albumArtist, sort: clean(row.albumArtistSort) };
  if (compilation) return { name: VARIOUS_ARTISTS, sort: '' };
  return { name: primaryArtistOf(row), sort: clean(row.artistSort) };
}

/** Whether a song could make a title group a compilation: no album artist, no release id, a title. */
export const isLoose = (row: BrowseSongRow) => !row.compilation && clean(row.albumArtist) === '' && !row.mbzAlbumId && albumNameOf(row) !== '';

/** The order key of a name: its sort tag or itself, folded, without a leading article "The". */
export function sortKeyOf(folded: string): string {
  return folded.replace(/^the\s+/u, '');
}

interface TitleGroup {
  artists: Set<string>;
  /** "disc:track" → the artist (folded) of the first song there. */
  slots: Map<string, string>;
  /** Two artists' songs share a disc and track number: two albums of one title, not a compilation. */
  collided: boolean;
}

/**
 * Finds the titles that are compilations without a flag: songs with no album artist whose one
 * title (folded) spans different track artists that never share a disc and track number.
 */
export class CompilationFinder {
  private readonly groups = new Map<string, TitleGroup>();

  isCompilation(albumFold: string): boolean {
    const group = this.groups.get(albumFold);
    return group !== undefined && group.artists.size > 1 && !group.collided;
  }

  /** Takes in more songs; returns the titles, known before, whose verdict these songs changed. */
  add(rows: readonly { row: BrowseSongRow; albumFold: string; artistFold: string }[]): Set<string> {
    const before = new Map<string, boolean | null>();
    for (const { row, albumFold, artistFold } of rows) {
      if (!isLoose(row)) continue;
      if (!before.has(albumFold)) before.set(albumFold, this.groups.has(albumFold) ? this.isCompilation(albumFold) : null);
      let group = this.groups.get(albumFold);
      if (!group) {
        group = { artists: new Set(), slots: new Map(), collided: false };
        this.groups.set(albumFold, group);
      }
      group.artists.add(artistFold);
      if (row.trackNumber !== null) {
        const slot = `${row.discNumber ?? 1}:${row.trackNumber}`;
        const there = group.slots.get(slot);
        if (there === undefined) group.slots.set(slot, artistFold);
        else if (there !== artistFold) group.collided = true;
      }
    }
    return new Set([...before].filter(([title, was]) => was !== null && this.isCompilation(title) !== was).map(([title]) => title));
  }
}
