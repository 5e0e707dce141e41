import type { SongListEntry } from '@encore/common/library.contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useT } from '../../lib/i18n/i18n.store';
import { songPageQuery, type SongPage, type SongPageRequest } from '../../lib/song-list.query';
import { songQueryKeys, type SongListFilter } from '../../lib/song-query-keys';
import { player } from '../../player/player.store';
import { fetchSong } from '../../lib/song-detail.api';
import { deleteSong, postToggleLike } from './library.api';

/** One page of a list, searched and sorted by the server. */
export function useSongPage(request: SongPageRequest) {
  return useQuery(songPageQuery(request));
}

/** Changes the songs of every cached page (the total follows what was removed). */
function patchPages(client: QueryClient, change: (songs: SongListEntry[]) => SongListEntry[], predicate?: (queryKey: readonly unknown[]) => boolean): void {
  client.setQueriesData<SongPage>({ queryKey: songQueryKeys.lists(), ...(predicate ? { predicate: (query) => predicate(query.queryKey) } : {}) }, (page) => {
    if (!page) return page;
    const songs = change(page.songs);
    return { songs, total: Math.max(0, page.total - (page.songs.length - songs.length)) };
  });
}

export function useSong(id: number) {
  return useQuery({
    queryKey: songQueryKeys.detail(id),
    queryFn: ({ signal }) => fetchSong(id, signal),
  });
}

/** Applies a change to one song wherever the cache holds it: every list and its detail entry. */
function patchCachedSong(client: QueryClient, id: number, patch: (song: SongListEntry) => SongListEntry | null): void {
  patchPages(client, (songs) =>
    songs.flatMap((song) => {
      if (song.id !== id) return [song];
      const changed = patch(song);
      return changed ? [changed] : [];
    }),
  );
  client.setQueryData<SongListEntry>(songQueryKeys.detail(id), (song) => (song ? (patch(song) ?? undefined) : song));
}

/** True for the cached lists of favourites (`['songs', 'list', {favorites: true}]`). */
function isFavoritesList(queryKey: readonly unknown[]): boolean {
  const filter = queryKey[2] as Partial<SongListFilter> | undefined;
  return filter?.favorites === true;
}

/**
 * The like toggle (SPEC 4): on success isLiked flips on the song in every list and on its
 * page. A song unliked leaves Favorites at once (it is no longer a favourite); a song liked
 * elsewhere joins Favorites the next time that list is loaded.
 */
export function useToggleLike() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: (id: number) => postToggleLike(id),
    onSuccess: ({ id, isLiked }) => {
      patchCachedSong(client, id, (song) => ({ ...song, isLiked }));
      if (!isLiked) {
        patchPages(client, (songs) => songs.filter((song) => song.id !== id), isFavoritesList);
      }
      void client.invalidateQueries({ queryKey: songQueryKeys.lists(), refetchType: 'none' });
    },
    meta: { errorToast: { fallback: t('toggleLikeFailed') } },
  });
}

/** Deletes one of the user's own songs; it leaves every list, and the player if it was playing. */
export function useDeleteSong() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: (id: number) => deleteSong(id),
    meta: { errorToast: { fallback: t('deleteSongFailed') } },
    onSuccess: (_nothing, id) => {
      if (player.getState().current?.id === id) player.close();
      patchPages(client, (songs) => songs.filter((song) => song.id !== id));
      client.removeQueries({ queryKey: songQueryKeys.detail(id) });
      void client.invalidateQueries({ queryKey: songQueryKeys.lists(), refetchType: 'none' });
    },
  });
}
