import { SONG_SORTS, type SongSort } from '@encore/common/library.contract';
import type { MessageKey } from '../../lib/i18n/catalogue';

/** The music page's order lives in the URL (`?sort=title`), so back, reload and links keep it. */
export const SORT_PARAM = 'sort';
export const DEFAULT_SORT: SongSort = 'recent';

export const SORT_LABELS: Record<SongSort, MessageKey> = {
  recent: 'musicSortRecent',
  title: 'musicSortTitle',
  artist: 'musicSortArtist',
  album: 'musicSortAlbum',
};

export function sortFrom(params: URLSearchParams): SongSort {
  const value = params.get(SORT_PARAM);
  return SONG_SORTS.find((sort) => sort === value) ?? DEFAULT_SORT;
}

/** The same search parameters with the order set (the default leaves the URL clean). */
export function withSort(params: URLSearchParams, sort: SongSort): URLSearchParams {
  const next = new URLSearchParams(params);
  if (sort === DEFAULT_SORT) next.delete(SORT_PARAM);
  else next.set(SORT_PARAM, sort);
  return next;
}
