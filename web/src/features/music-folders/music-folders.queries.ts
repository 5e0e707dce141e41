import type { MusicFoldersResponse, ScanStatus } from '@encore/common/music-folders.contract';
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useT } from '../../lib/i18n/i18n.store';
import { songQueryKeys } from '../../lib/song-query-keys';
import { fetchMusicFolders, postScan } from './music-folders.api';

export const musicFoldersQueryKey = ['music-folders'] as const;

/** How often the status is asked for: often while a scan runs, now and then otherwise (a watched change, the schedule). */
export const RUNNING_POLL_MS = 2_000;
export const IDLE_POLL_MS = 60_000;

/** True when a scan ended between two answers: the one that was running, or one that ran entirely between them. */
export function scanEnded(previous: ScanStatus, next: ScanStatus): boolean {
  if (next.state === 'running') return false;
  return previous.state === 'running' || (next.finishedAt !== null && next.finishedAt !== previous.finishedAt);
}

/** The poll interval for what the server said last: none without folders (or an answer). */
export function pollInterval(data: MusicFoldersResponse | undefined): number | false {
  if (!data || data.folders.length === 0) return false;
  return data.scan.state === 'running' ? RUNNING_POLL_MS : IDLE_POLL_MS;
}

/**
 * The music folders and their scan, followed while the panel is on screen. When a scan ends the
 * song lists (and cached songs) are refreshed, so what it added, changed or hid shows at once.
 * A failure (an older server without music folders) is not toasted: the panel stays hidden.
 */
export function useMusicFolders() {
  const client = useQueryClient();
  return useQuery({
    queryKey: musicFoldersQueryKey,
    queryFn: async ({ signal }) => {
      const previous = client.getQueryData<MusicFoldersResponse>(musicFoldersQueryKey);
      const next = await fetchMusicFolders(signal);
      if (previous && scanEnded(previous.scan, next.scan)) void client.invalidateQueries({ queryKey: songQueryKeys.all });
      return next;
    },
    refetchInterval: (query: Query<MusicFoldersResponse, Error, MusicFoldersResponse, typeof musicFoldersQueryKey>) => pollInterval(query.state.data),
  });
}

/** "Scan now": the answer (the running scan) goes into the cache, so the panel polls it at once. */
export function useStartScan() {
  const client = useQueryClient();
  const t = useT();
  return useMutation({
    mutationFn: () => postScan(),
    meta: { errorToast: { fallback: t('musicFoldersScanFailed') } },
    onSuccess: (scan) => {
      client.setQueryData<MusicFoldersResponse>(musicFoldersQueryKey, (data) => (data ? { ...data, scan } : data));
      toast.success(t('musicFoldersScanStarted'));
    },
    // After a refusal too (a scan already running, say): the panel shows what the server says now.
    onSettled: () => client.invalidateQueries({ queryKey: musicFoldersQueryKey }),
  });
}
