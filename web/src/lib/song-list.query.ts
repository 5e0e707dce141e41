import { songList, type Song } from '@encore/common/library.contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { translate } from './i18n/i18n.store';
import { songQueryKeys, type SongListFilter } from './song-query-keys';

/**
 * A list of songs (GET files, SPEC 7): the one function, and the one cache entry per filter,
 * that every feature reading the collection uses (the library's lists, the playlists' Add Song
 * selector and covers). Failures throw ApiError.
 */
export function fetchSongs(filter: SongListFilter, signal?: AbortSignal): Promise<Song[]> {
  return apiRequest('files', {
    query: { owner: filter.owner || undefined, favorites: filter.favorites || undefined },
    schema: songList,
    fallbackMessage: translate('fetchMusicFilesFailed'),
    signal,
  });
}

/** The query of a song list: pass to `useQuery` (or `useQuery({ ...songListQuery(f), ... })`). */
export function songListQuery(filter: SongListFilter) {
  return queryOptions({ queryKey: songQueryKeys.list(filter), queryFn: ({ signal }) => fetchSongs(filter, signal) });
}

/** Every song of the collection (the library's All Music list). */
export const ALL_SONGS: SongListFilter = { owner: false, favorites: false };
