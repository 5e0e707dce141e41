import type { CreatePlaylistBody, Playlist, PlaylistSummary, UpdatePlaylistBody } from '@encore/common/playlists.contract';
import { useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useT } from '../../lib/i18n/i18n.store';
import { ALL_SONGS, songPageQuery } from '../../lib/song-list.query';
import { fetchSong } from '../../lib/song-detail.api';
import { songQueryKeys } from '../../lib/song-query-keys';
import {
  deletePlaylist,
  deletePlaylistSong,
  fetchPlaylists,
  patchPlaylistKeepFresh,
  postPlaylist,
  postPlaylistImport,
  postPlaylistSong,
  postPlaylistSongs,
  putPlaylist,
  putPlaylistOrder,
} from './playlists.api';
import { orderSongsBy } from './playlist-order';
import { addNewPlaylistToCache, playlistDetailQuery, playlistQueryKeys, toPlaylistSummary } from '../../lib/playlist-cache';

export function usePlaylists() {
  return useQuery({ queryKey: playlistQueryKeys.list(), queryFn: ({ signal }) => fetchPlaylists(signal) });
}

export function usePlaylist(id: number) {
  return useQuery(playlistDetailQuery(id));
}

/** The songs of these ids (a playlist card's first few, for its cover), each cached on its own. */
export function useSongsByIds(ids: readonly number[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: songQueryKeys.detail(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSong(id, signal),
      staleTime: 5 * 60_000,
    })),
  });
}

/** How many songs the Add Song selector offers at once; a search finds the others. */
export const SONG_CHOICES_LIMIT = 50;

/** The Add Song selector's songs: the first matches of a search of the whole collection, by title. */
export function useSongChoices(q: string) {
  return useQuery(songPageQuery({ ...ALL_SONGS, q, sort: 'title', limit: SONG_CHOICES_LIMIT, offset: 0 }));
}

/** Stores the playlist the server answered with, on its page and in the list (where loaded). */
function storePlaylist(client: QueryClient, playlist: Playlist): void {
  client.setQueryData(playlistQueryKeys.detail(playlist.id), playlist);
  client.setQueryData<PlaylistSummary[]>(playlistQueryKeys.list(), (list) =>
    list?.map((entry) => (entry.id === playlist.id ? toPlaylistSummary(playlist) : entry)),
  );
}

export function useCreatePlaylist() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    // The server's words for a rule it checks (a name too long); ours otherwise.
    meta: { errorToast: { fallback: t('createPlaylistFailed'), serverMessage: [400] } },
    mutationFn: (body: CreatePlaylistBody) => postPlaylist(body),
    onSuccess: (playlist) => addNewPlaylistToCache(client, playlist),
  });
}

export function useUpdatePlaylist(id: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('playlistUpdateFailed') } },
    mutationFn: (body: UpdatePlaylistBody) => putPlaylist(id, body),
    onSuccess: (playlist) => storePlaylist(client, playlist),
  });
}

/** The Keep fresh switch of an AI playlist: the playlist the server answers with replaces the cached one. */
export function useKeepFresh(id: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('keepFreshFailed') } },
    mutationFn: (keepFresh: boolean) => patchPlaylistKeepFresh(id, keepFresh),
    onSuccess: (playlist) => storePlaylist(client, playlist),
  });
}

export function useDeletePlaylist() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: (id: number) => deletePlaylist(id),
    meta: { errorToast: { fallback: t('deletePlaylistFailed') } },
    onSuccess: (_nothing, id) => {
      client.setQueryData<PlaylistSummary[]>(playlistQueryKeys.list(), (list) => list?.filter((entry) => entry.id !== id));
      client.removeQueries({ queryKey: playlistQueryKeys.detail(id), exact: true });
    },
  });
}

export function useAddPlaylistSong() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('addSongFailed') } },
    mutationFn: ({ playlistId, songId }: { playlistId: number; songId: number }) => postPlaylistSong(playlistId, songId),
    onSuccess: (playlist) => storePlaylist(client, playlist),
  });
}

/** Appends several songs in their order (an album), those already there skipped. */
export function useAddPlaylistSongs() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('addSongFailed') } },
    mutationFn: ({ playlistId, songIds }: { playlistId: number; songIds: readonly number[] }) => postPlaylistSongs(playlistId, songIds),
    onSuccess: (playlist) => storePlaylist(client, playlist),
  });
}

/** Imports an M3U or M3U8 file's songs into the playlist; the server's words for a file it refuses. */
export function useImportPlaylist(id: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('importPlaylistFailed'), serverMessage: [400] } },
    mutationFn: (text: string) => postPlaylistImport(id, text),
    onSuccess: ({ playlist }) => storePlaylist(client, playlist),
  });
}

export function useRemovePlaylistSong(id: number) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('removeSongFailed') } },
    mutationFn: (songId: number) => deletePlaylistSong(id, songId),
    onSuccess: (playlist) => storePlaylist(client, playlist),
  });
}

/**
 * Saves a new order at once (PUT with the full list). The rows move before the server answers;
 * when it refuses, the order from before the move comes back and an error toast says so.
 */
export function useReorderPlaylist(id: number) {
  const client = useQueryClient();
  const t = useT();
  const key = playlistQueryKeys.detail(id);
  return useMutation({
    mutationKey: playlistQueryKeys.reorder(id),
    meta: { errorToast: { fallback: t('playlistUpdateFailed') } },
    mutationFn: (songIds: readonly number[]) => putPlaylistOrder(id, songIds),
    onMutate: async (songIds) => {
      await client.cancelQueries({ queryKey: key, exact: true });
      const previous = client.getQueryData<Playlist>(key);
      if (previous) client.setQueryData<Playlist>(key, { ...previous, songs: orderSongsBy(previous.songs, songIds) });
      return { previous };
    },
    onError: (_error, _songIds, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
      // A refused order may mean the playlist changed elsewhere (another tab): read it again.
      void client.invalidateQueries({ queryKey: key, exact: true });
    },
    onSuccess: (playlist) => {
      // A later move still on its way owns the rows; its own answer will settle them.
      if (client.isMutating({ mutationKey: playlistQueryKeys.reorder(id) }) <= 1) storePlaylist(client, playlist);
    },
  });
}
