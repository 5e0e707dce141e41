import { playlistsEndpoints, type Playlist, type PlaylistSummary } from '@encore/common/playlists.contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callEndpoint } from './endpoint-client';
import { translate } from './i18n/i18n.store';

/**
 * The query-cache keys of playlists, shared by the feature that shows and edits them
 * (playlists) and those that make new ones (discovery's AI playlists, More like this).
 */
export const playlistQueryKeys = {
  all: ['playlists'] as const,
  list: () => ['playlists', 'list'] as const,
  detail: (id: number) => ['playlists', 'detail', id] as const,
  reorder: (id: number) => ['playlists', 'reorder', id] as const,
};

/** The list's form of a playlist (songs as id and name only). */
export function toPlaylistSummary(playlist: Playlist): PlaylistSummary {
  return { ...playlist, songs: playlist.songs.map(({ id, displayName }) => ({ id, displayName })) };
}

/**
 * A playlist the server has just made: it becomes the cached detail (its page opens at once)
 * and joins the list where the list is loaded; the list is then read again in the background.
 */
export function addNewPlaylistToCache(client: QueryClient, playlist: Playlist): void {
  client.setQueryData(playlistQueryKeys.detail(playlist.id), playlist);
  client.setQueryData<PlaylistSummary[]>(playlistQueryKeys.list(), (list) =>
    list ? [...list.filter((entry) => entry.id !== playlist.id), toPlaylistSummary(playlist)] : list,
  );
  void client.invalidateQueries({ queryKey: playlistQueryKeys.list() });
}

/** One playlist with its songs (GET playlists/{id}): the one fetch and cache entry its page and its makers use. */
export function playlistDetailQuery(id: number) {
  return queryOptions({
    queryKey: playlistQueryKeys.detail(id),
    queryFn: ({ signal }) => callEndpoint(playlistsEndpoints.get, { params: { id }, fallbackMessage: translate('playlistLoadFailed'), signal }),
  });
}

/**
 * A playlist the server made from a prompt or a song (AI playlists): the list is read again so
 * it joins My Playlists, and the playlist itself is loaded into the cache so its page opens at once.
 */
export async function cacheMadePlaylist(client: QueryClient, id: number): Promise<void> {
  void client.invalidateQueries({ queryKey: playlistQueryKeys.list() });
  await client.prefetchQuery(playlistDetailQuery(id));
}
