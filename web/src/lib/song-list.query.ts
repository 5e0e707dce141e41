import { libraryEndpoints, TOTAL_COUNT_HEADER, type SongListEntry, type SongSort } from '@encore/common/library.contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { callEndpointWithHeaders } from './endpoint-client';
import { translate } from './i18n/i18n.store';
import { songQueryKeys, type SongListFilter } from './song-query-keys';

/** One page of a song list as the server searched, sorted and cut it. */
export interface SongPageRequest extends SongListFilter {
  q: string;
  sort: SongSort;
  limit: number;
  offset: number;
}

export interface SongPage {
  songs: SongListEntry[];
  /** How many songs match in all pages together. */
  total: number;
}

/**
 * A page of songs (GET files, SPEC 7): the server pages, searches and sorts, and says how many
 * songs match in its X-Total-Count header. Every feature reading the collection uses it (the
 * library's lists, the player's queue, the playlists' Add Song selector). Failures throw ApiError.
 */
export async function fetchSongPage(request: SongPageRequest, signal?: AbortSignal): Promise<SongPage> {
  const q = request.q.trim();
  const { data, headers } = await callEndpointWithHeaders(libraryEndpoints.list, {
    query: {
      owner: request.owner || undefined,
      favorites: request.favorites || undefined,
      q: q || undefined,
      sort: request.sort === 'recent' ? undefined : request.sort,
      limit: request.limit,
      offset: request.offset || undefined,
    },
    fallbackMessage: translate('fetchMusicFilesFailed'),
    signal,
  });
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  // A server without the header (an older one): at least what this page shows.
  return { songs: data, total: Number.isFinite(total) && headers.has(TOTAL_COUNT_HEADER) ? total : request.offset + data.length };
}

/**
 * The query of one page: every page seen stays in the cache (going back is instant), and while
 * the next one loads the previous stays on screen.
 */
export function songPageQuery(request: SongPageRequest) {
  return queryOptions({
    queryKey: songQueryKeys.page(request),
    queryFn: ({ signal }) => fetchSongPage(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Every song of the collection (the library's All Music list). */
export const ALL_SONGS: SongListFilter = { owner: false, favorites: false };
