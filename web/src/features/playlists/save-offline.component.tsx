import { libraryEndpoints } from '@encore/common/library.contract';
import { playlistsEndpoints, type Playlist } from '@encore/common/playlists.contract';
import { CloudDownload, HardDriveDownload, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { endpointUrl } from '../../lib/endpoint-client';
import { formatFileSize } from '../../lib/file-size.format';
import { useT } from '../../lib/i18n/i18n.store';
import { readStoredToken } from '../../lib/session-storage';
import {
  offlineSupported,
  readSavedPlaylists,
  removePlaylistOffline,
  savedPlaylistsSnapshot,
  savePlaylistOffline,
  subscribeSavedPlaylists,
  type OfflineUrls,
  type SaveProgress,
} from '../../offline/offline-songs';

function useSavedPlaylist(id: number) {
  // Re-renders when the saved playlists change; the snapshot is their stored text.
  useSyncExternalStore(subscribeSavedPlaylists, savedPlaylistsSnapshot, () => '');
  return readSavedPlaylists()[id] ?? null;
}

async function apiResponse(url: string, signal: AbortSignal): Promise<Response> {
  const token = readStoredToken();
  const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include', signal });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

/** The reads the service worker answers offline, at the URLs the app asks them by. */
const offlineUrls: OfflineUrls = {
  songUrl: (id) => endpointUrl(libraryEndpoints.get, { params: { id } }),
  playlistUrl: (id) => endpointUrl(playlistsEndpoints.get, { params: { id } }),
};

/**
 * "Save for offline" (issue 30): the playlist's songs stored in this browser, so the playlist
 * plays with no connection; shows the space its songs take, and removes the copy.
 */
export function SaveOfflineButton({ playlist }: { playlist: Playlist }) {
  const t = useT();
  const saved = useSavedPlaylist(playlist.id);
  const [progress, setProgress] = useState<SaveProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  if (!offlineSupported() || playlist.songs.length === 0) return null;

  const save = async () => {
    controller.current = new AbortController();
    try {
      const { fetchPlayUrl } = await import('../../player/player.api');
      await savePlaylistOffline(
        playlist.id,
        playlist.songs.map((song) => song.id),
        { playUrl: fetchPlayUrl, apiResponse, ...offlineUrls },
        setProgress,
        controller.current.signal,
      );
      toast.success(t('offlineSavedToast'));
    } catch (error) {
      if (!controller.current.signal.aborted) {
        console.error('Saving for offline failed', error);
        toast.error(t('offlineSaveFailed'));
      }
    } finally {
      setProgress(null);
    }
  };

  const remove = async () => {
    await removePlaylistOffline(playlist.id, offlineUrls);
    toast.success(t('offlineRemovedToast'));
  };

  if (progress) {
    return (
      <Button variant="secondary" disabled aria-live="polite">
        <Spinner />
        {t('offlineSaving', { done: String(progress.done), total: String(progress.total) })}
      </Button>
    );
  }
  if (saved) {
    const stale = playlist.songs.some((song) => !saved.songIds.includes(song.id));
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <span className="inline-flex items-center gap-1.5 text-sm text-muted" data-testid="offline-status">
          <HardDriveDownload aria-hidden className="size-4 text-emerald-300" />
          {t('offlineSaved', { size: formatFileSize(saved.bytes) })}
        </span>
        {stale ? (
          <Button variant="secondary" size="sm" onClick={() => void save()}>
            <CloudDownload aria-hidden className="size-4" />
            {t('offlineSave')}
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onClick={() => void remove()}>
          <Trash2 aria-hidden className="size-4" />
          {t('offlineRemove')}
        </Button>
      </span>
    );
  }
  return (
    <Button variant="secondary" onClick={() => void save()}>
      <CloudDownload aria-hidden className="size-4" />
      {t('offlineSave')}
    </Button>
  );
}
