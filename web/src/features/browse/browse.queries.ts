import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ListAlbumsOptions, ListArtistsOptions } from '@encore/common/browse.contract';
import { fetchAlbum, fetchAlbums, fetchArtist, fetchArtists, fetchGenres } from './browse.api';

const PAGE = 60;

/** The cache keys of the browse pages. */
export const browseKeys = {
  artist: (id: string) => ['browse', 'artist', id] as const,
  album: (id: string) => ['browse', 'album', id] as const,
};

export function useArtistPages(query: Omit<ListArtistsOptions, 'cursor' | 'limit'>) {
  return useInfiniteQuery({
    queryKey: ['browse', 'artists', query],
    queryFn: ({ pageParam, signal }) => fetchArtists({ ...query, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useAlbumPages(query: Omit<ListAlbumsOptions, 'cursor' | 'limit'>) {
  return useInfiniteQuery({
    queryKey: ['browse', 'albums', query],
    queryFn: ({ pageParam, signal }) => fetchAlbums({ ...query, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export const useArtist = (id: string) => useQuery({ queryKey: browseKeys.artist(id), queryFn: ({ signal }) => fetchArtist(id, signal) });
export const useAlbum = (id: string) => useQuery({ queryKey: browseKeys.album(id), queryFn: ({ signal }) => fetchAlbum(id, signal) });
export const useGenres = () => useQuery({ queryKey: ['browse', 'genres'], queryFn: ({ signal }) => fetchGenres(signal) });
