import type { AlbumOrder, AlbumQuery, ArtistOrder, Page } from './library.port.js';
import { yearOf, type AlbumEntry, type ArtistEntry, type BrowseIndex } from './song-browse.index.js';

/**
 * The web's pages of artists and albums over the browse index: filters, then an order, then a
 * slice. Lists in the index's own orders are sorted once per change of the index (BrowseIndex.memo);
 * orders by the viewer's plays and random ones are sorted per call.
 */

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `words` are the query folded and split: each must be in the text. */
const matchesAll = (words: readonly string[], text: string) => words.every((word) => text.includes(word));

/** What a query is matched against: the folded name, or for untagged songs the name shown (Unknown Artist, Unknown Album). */
const searchable = (entry: { fold: string; name: string }) => entry.fold || entry.name.toLowerCase();

export function findArtists(index: BrowseIndex, words: readonly string[], order: ArtistOrder, page: Page): { list: ArtistEntry[]; more: boolean } {
  let list = index.artistsByName();
  if (words.length > 0) list = list.filter((artist) => matchesAll(words, searchable(artist)));
  if (order === 'recent') {
    const newest = (artist: ArtistEntry) => Math.max(...artist.albums.map((album) => album.addedAt));
    list = [...list].sort((a, b) => newest(b) - newest(a) || compare(a.key, b.key));
  } else if (order !== 'name') {
    const score = (artist: ArtistEntry) => artist.albums.reduce((sum, album) => sum + albumScore(album, order.scores), 0);
    list = sortByScore(list, score);
  }
  return slice(list, page);
}

export function findAlbums(
  index: BrowseIndex,
  words: readonly string[],
  genreFold: string | undefined,
  query: AlbumQuery,
): { list: AlbumEntry[]; more: boolean } {
  let list = baseOrder(index, query.order);
  const from = query.yearFrom ?? Number.MIN_SAFE_INTEGER;
  const to = query.yearTo ?? Number.MAX_SAFE_INTEGER;
  const hasYears = query.yearFrom !== undefined || query.yearTo !== undefined;
  if (words.length > 0 || genreFold !== undefined || hasYears || query.artistKey !== undefined) {
    list = list.filter((album) => {
      if (query.artistKey !== undefined && album.artist.key !== query.artistKey) return false;
      if (genreFold !== undefined && !album.genres.has(genreFold)) return false;
      if (hasYears) {
        const year = yearOf(album);
        if (year === null || year < Math.min(from, to) || year > Math.max(from, to)) return false;
      }
      return words.length === 0 || matchesAll(words, `${searchable(album)} ${searchable(album.artist)}`);
    });
  }
  const order = query.order;
  if (typeof order === 'object' && 'scores' in order) list = sortByScore(list, (album) => albumScore(album, order.scores));
  else if (typeof order === 'object') list = seededShuffle(list, order.seed);
  return slice(list, query.page);
}

function baseOrder(index: BrowseIndex, order: AlbumOrder): AlbumEntry[] {
  switch (order) {
    case 'recent':
      return index.albumsNewest();
    case 'artist':
      return index.albumsByArtist();
    case 'year':
      // Albums without a year after those with one.
      return index.memo('albumsByYearAll', () => [...index.albumsByYear(), ...index.albumsByArtist().filter((album) => album.years.size === 0)]);
    default:
      // By name for 'name'; the other orders re-sort it (a stable base: ties keep name order).
      return index.albumsByName();
  }
}

function albumScore(album: AlbumEntry, scores: ReadonlyMap<number, number>): number {
  let sum = 0;
  for (const id of album.songIds) sum += scores.get(id) ?? 0;
  return sum;
}

/** Most first; ties keep the list's order (sort is stable). */
function sortByScore<T>(list: readonly T[], score: (entry: T) => number): T[] {
  const scored = list.map((entry) => ({ entry, score: score(entry) }));
  scored.sort((a, b) => b.score - a.score);
  return scored.map((item) => item.entry);
}

function slice<T>(list: readonly T[], page: Page): { list: T[]; more: boolean } {
  const offset = Math.max(0, Math.trunc(page.offset));
  const count = Math.max(0, Math.trunc(page.count));
  return { list: list.slice(offset, offset + count), more: offset + count < list.length };
}

/** The same shuffle for the same seed (mulberry32 driving Fisher–Yates): a random order that pages. */
function seededShuffle<T>(list: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
