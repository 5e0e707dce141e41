import type { SaveSmartPlaylistBody, SmartPlaylist } from '@encore/common/smart-playlist.contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useT } from '../../../lib/i18n/i18n.store';
import {
  deleteSmartPlaylist,
  fetchSmartPlaylist,
  fetchSmartPlaylists,
  fetchSmartSongs,
  postSmartImport,
  postSmartPlaylist,
  postSmartPreview,
  putSmartPlaylist,
} from './smart-playlists.api';

export const smartQueryKeys = {
  all: ['smart-playlists'] as const,
  list: () => [...smartQueryKeys.all, 'list'] as const,
  detail: (id: number) => [...smartQueryKeys.all, 'detail', id] as const,
  songs: (id: number, limit: number) => [...smartQueryKeys.all, 'songs', id, limit] as const,
  preview: (rules: string) => [...smartQueryKeys.all, 'preview', rules] as const,
};

export function useSmartPlaylists() {
  return useQuery({ queryKey: smartQueryKeys.list(), queryFn: ({ signal }) => fetchSmartPlaylists(signal) });
}

export function useSmartPlaylist(id: number) {
  return useQuery({ queryKey: smartQueryKeys.detail(id), queryFn: ({ signal }) => fetchSmartPlaylist(id, signal) });
}

/**
 * The first `limit` songs that match now. Refetched when the window regains focus and every
 * half minute while the page is open, so a song added to the library joins without a reload.
 */
export function useSmartSongs(id: number, limit: number) {
  return useQuery({
    queryKey: smartQueryKeys.songs(id, limit),
    queryFn: ({ signal }) => fetchSmartSongs(id, { limit, offset: 0 }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** The editor's live count for rules not saved yet (`rules` is their JSON text, the query's key). */
export function useSmartPreview(rules: string | undefined) {
  return useQuery({
    queryKey: smartQueryKeys.preview(rules ?? ''),
    queryFn: ({ signal }) => postSmartPreview({ rules: JSON.parse(rules ?? '{}') as unknown, limit: 0 }, signal),
    enabled: rules !== undefined,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSaveSmartPlaylist(id: number | undefined) {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('smartSaveFailed'), serverMessage: [400, 403] } },
    mutationFn: (body: SaveSmartPlaylistBody) => (id === undefined ? postSmartPlaylist(body) : putSmartPlaylist(id, body)),
    onSuccess: (saved) => {
      client.setQueryData(smartQueryKeys.detail(saved.id), saved);
      void client.invalidateQueries({ queryKey: smartQueryKeys.all });
    },
  });
}

export function useDeleteSmartPlaylist() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('smartDeleteFailed') } },
    mutationFn: (id: number) => deleteSmartPlaylist(id),
    onSuccess: (_nothing, id) => {
      client.setQueryData<SmartPlaylist[]>(smartQueryKeys.list(), (list) => list?.filter((entry) => entry.id !== id));
      client.removeQueries({ queryKey: smartQueryKeys.detail(id), exact: true });
    },
  });
}

export function useImportSmartPlaylist() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    meta: { errorToast: { fallback: t('smartImportFailed'), serverMessage: [400] } },
    mutationFn: (text: string) => postSmartImport(text),
    onSuccess: () => void client.invalidateQueries({ queryKey: smartQueryKeys.list() }),
  });
}
