import type { Playlist, PlaylistSummary } from '@encore/common/playlists.contract';
import type { QueryClient } from '@tanstack/react-query';

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
