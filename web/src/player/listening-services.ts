import { toast } from 'sonner';
import { formatClockTime } from '../lib/clock-time.format';
import { translate } from '../lib/i18n/i18n.store';
import { createBookmarkSync } from './bookmark-sync';
import { createPlayCounter } from './play-counting';
import { startQueueSync } from './queue-sync';
import type { Player } from './player.store';

/** Query keys of the listening history (the music page's rows), refreshed when a play is counted. */
export const listeningKeys = {
  all: ['listening'] as const,
  history: (kind: 'recent' | 'most') => ['listening', 'history', kind] as const,
};

const countedListeners = new Set<(songId: number) => void>();

/** Called after the server counted a play (the history rows refresh). */
export function onPlayCounted(listener: (songId: number) => void): () => void {
  countedListeners.add(listener);
  return () => countedListeners.delete(listener);
}

/**
 * What goes on beside the sound while a user is signed in (issue 30): the queue saved to and
 * restored from the server, plays counted after half the song or 4 minutes of listening, and
 * long songs resumed from their bookmarks (issue 41).
 * Started once, at the first sign-in of the page (player.store.ts), loaded only then.
 */
export function startListeningServices(player: Player): () => void {
  const stopSync = startQueueSync(player);
  const counter = createPlayCounter((songId) => {
    void import('./player.api')
      .then((api) => api.postPlay(songId))
      .then(() => countedListeners.forEach((listener) => listener(songId)))
      .catch((error: unknown) => console.error('The play could not be counted', error));
  });
  const bookmarks = createBookmarkSync({
    store: {
      get: async (songId) => (await import('./player.api')).fetchBookmark(songId),
      save: async (songId, positionMs) => (await import('./player.api')).putBookmark(songId, positionMs),
      remove: async (songId) => (await import('./player.api')).deleteBookmark(songId),
    },
    seek: (seconds) => player.seek(seconds),
    resumed: (seconds, startOver) =>
      toast(translate('bookmarkResumed', { time: formatClockTime(seconds) }), { action: { label: translate('bookmarkStartOver'), onClick: startOver } }),
  });
  const stopState = player.subscribe(() => {
    const state = player.getState();
    counter.onState(state);
    bookmarks.onState(state);
  });
  const stopEvents = player.onEvent((event) => {
    counter.onEvent(event);
    bookmarks.onEvent(event);
  });
  return () => {
    stopSync();
    stopState();
    stopEvents();
  };
}
