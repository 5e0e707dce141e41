import { useEffect } from 'react';
import { useCoverImage } from '../lib/cover-image.query';
import { useT } from '../lib/i18n/i18n.store';
import { songHeadline } from '../lib/song-headline';
import { player, usePlayer } from './player.store';

/** Seconds a headset's or the lock screen's skip-back / skip-forward moves when it names none. */
const MEDIA_KEY_SEEK_SECONDS = 10;

type Handlers = Partial<Record<MediaSessionAction, MediaSessionActionHandler>>;

const handlers: Handlers = {
  play: () => void player.play(),
  pause: () => player.pause(),
  stop: () => player.close(),
  previoustrack: () => player.previous(),
  nexttrack: () => player.next(),
  seekbackward: (details) => player.seekBy(-(details.seekOffset ?? MEDIA_KEY_SEEK_SECONDS)),
  seekforward: (details) => player.seekBy(details.seekOffset ?? MEDIA_KEY_SEEK_SECONDS),
  seekto: (details) => {
    if (details.seekTime !== undefined) player.seek(details.seekTime);
  },
};

function mediaSession(): MediaSession | null {
  return typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;
}

function setHandler(session: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
  try {
    session.setActionHandler(action, handler);
  } catch {
    // A browser that does not know this action: the others still work.
  }
}

/**
 * The Media Session API: the lock screen, the system's media controls and a headset's or
 * keyboard's media keys show the song (title, artist, cover) and play, pause, seek and skip it.
 */
export function useMediaSession(): void {
  const t = useT();
  const current = usePlayer((state) => state.current);
  const isPlaying = usePlayer((state) => state.isPlaying);
  const ready = usePlayer((state) => state.ready);
  const duration = usePlayer((state) => state.duration);
  // Whole seconds are plenty for the system's position bar, and spare it four updates a second.
  const position = usePlayer((state) => Math.floor(state.currentTime));
  const { data: cover } = useCoverImage(current?.hasCover ? current.s3Key : null, 'full');

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    for (const [action, handler] of Object.entries(handlers) as [MediaSessionAction, MediaSessionActionHandler][]) setHandler(session, action, handler);
    return () => {
      for (const action of Object.keys(handlers) as MediaSessionAction[]) setHandler(session, action, null);
    };
  }, []);

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    if (!current || typeof MediaMetadata === 'undefined') {
      session.metadata = null;
      return;
    }
    session.metadata = new MediaMetadata({
      title: songHeadline(current),
      artist: current.artist ?? t('unknownArtist'),
      album: current.album ?? '',
      artwork: cover ? [{ src: cover, sizes: '512x512' }] : [],
    });
  }, [current, cover, t]);

  useEffect(() => {
    const session = mediaSession();
    if (!session) return;
    session.playbackState = !current ? 'none' : isPlaying ? 'playing' : 'paused';
  }, [current, isPlaying]);

  useEffect(() => {
    const session = mediaSession();
    if (!session?.setPositionState || !current || !ready || !(duration > 0)) return;
    try {
      session.setPositionState({ duration, position: Math.min(position, duration), playbackRate: 1 });
    } catch {
      // A position the browser refuses (a duration still settling) is corrected at the next tick.
    }
  }, [current, ready, duration, position]);
}
