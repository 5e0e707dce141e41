import type { SongListEntry } from '@encore/common/library.contract';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { player, usePlayer, usePlayerEvents } from '../../player/player.store';

/** The player's `source` while a playlist plays, so its page knows the queue is its own. */
export function playlistSource(id: number): string {
  return `playlist:${id}`;
}

/** How long the 'Playing {n} songs' loading toast stays (SPEC 8). */
export const PLAYING_TOAST_MS = 2000;

/**
 * Playlist playback (SPEC 4) on the app's one player: idle, playing, paused, stopped. Pause is
 * enabled only while this playlist plays; Resume only when it is paused on a current song; Stop
 * while it has a current song, and it clears that song. What the player reports about a
 * playlist's queue while the user is elsewhere is toasted by `usePlaylistNotices`.
 */
export function usePlaylistPlayback(id: number, songs: readonly SongListEntry[]) {
  const t = useT();
  const count = useTCount();
  const source = playlistSource(id);
  const hasCurrent = usePlayer((state) => state.source === source && state.current !== null);
  const isPlaying = usePlayer((state) => state.source === source && state.current !== null && state.isPlaying);
  const ready = usePlayer((state) => state.source === source && state.current !== null && state.ready);
  const currentSongId = usePlayer((state) => (state.source === source ? (state.current?.id ?? null) : null));

  useEffect(() => {
    player.updateQueue(songs, source);
  }, [songs, source]);

  const playAll = () => {
    if (songs.length === 0) {
      toast.error(t('playlistNoSongsToPlay'));
      return;
    }
    const notice = toast.loading(count('playingSongs', songs.length));
    setTimeout(() => toast.dismiss(notice), PLAYING_TOAST_MS);
    player.playQueue(songs, 0, { wrap: false, skipUnplayable: true, source });
  };

  const pause = () => {
    player.pause();
    toast.info(t('playbackPaused'));
  };

  const resume = () => {
    void player.play().then((started) => {
      if (started) toast.info(t('playbackResumed'));
      else toast.error(t('playbackResumeFailed'));
    });
  };

  const stop = () => {
    player.close();
    toast.info(t('playbackStopped'));
  };

  return {
    currentSongId,
    isPlaying,
    canPause: isPlaying,
    canResume: hasCurrent && ready && !isPlaying,
    canStop: hasCurrent,
    playAll,
    pause,
    resume,
    stop,
  };
}

export type PlaylistPlayback = ReturnType<typeof usePlaylistPlayback>;

/**
 * Mounted once in the layout, so a playlist that finishes, a song of it that cannot be played (the
 * playlist goes on with the next), or a playlist none of whose songs plays, is announced on
 * whatever page the user is on (SPEC 4 and 8).
 */
export function usePlaylistNotices(): void {
  const t = useT();
  usePlayerEvents((event) => {
    if (!('source' in event) || !event.source?.startsWith('playlist:')) return;
    if (event.type === 'finished') toast.success(t('playlistFinished'));
    if (event.type === 'error') toast.error(t('playlistSongFailed'));
    if (event.type === 'unplayable') toast.error(t('playlistNoPlayableSongs'));
  });
}
