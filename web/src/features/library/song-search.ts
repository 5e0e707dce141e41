import type { SongListEntry } from '@encore/common/library.contract';
import type { MessageKey } from '../../lib/i18n/catalogue';
import type { SongListFilter } from '../../lib/song-query-keys';

/** The songs whose display name, artist or album contains `text`, ignoring case (SPEC 5). */
export function filterSongs(songs: readonly SongListEntry[], text: string): SongListEntry[] {
  const needle = text.trim().toLocaleLowerCase();
  if (!needle) return [...songs];
  return songs.filter((song) => [song.displayName, song.artist, song.album].some((field) => field?.toLocaleLowerCase().includes(needle)));
}

/** The /music query string as the list it asks for: `owner=true`, `favorites=true` (SPEC 2, 6). */
export function songListFilterFrom(params: URLSearchParams): SongListFilter {
  const flag = (name: string) => ['true', '1'].includes(params.get(name) ?? '');
  return { owner: flag('owner'), favorites: flag('favorites') };
}

/** 'My Favorites' when favorites=true, 'My Music' when owner=true, else 'Music Collection' (SPEC 2). */
export function musicTitleKey(filter: SongListFilter): MessageKey {
  if (filter.favorites) return 'musicTitleFavorites';
  if (filter.owner) return 'musicTitleMine';
  return 'musicTitleAll';
}

/** One page of a list, with the page number held within range when the list shrinks. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  return { page: current, pageCount, items: items.slice((current - 1) * pageSize, current * pageSize) };
}
