import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { createPlayCounter } from './play-counting';
import { startQueueSync } from './queue-sync';
import { player } from './player.store';

/** Query keys of the listening history (the music page's rows), refreshed when a play is counted. */
export const listeningKeys = {
  all: ['listening'] as const,
  history: (kind: 'recent' | 'most') => ['listening', 'history', kind] as const,
};

/**
 * What goes on beside the sound while the app is open (issue 30): the queue saved to and
 * restored from the server, and plays counted after half the song or 4 minutes of listening.
 * Mounted once, with the player bar.
 */
export function useListening(): void {
  const client = useQueryClient();
  useEffect(() => startQueueSync(player), []);
  useEffect(() => {
    const counter = createPlayCounter((songId) => {
      void import('./player.api')
        .then((api) => api.postPlay(songId))
        .then(() => client.invalidateQueries({ queryKey: listeningKeys.all }))
        .catch((error: unknown) => console.error('The play could not be counted', error));
    });
    const stopState = player.subscribe(() => counter.onState(player.getState()));
    const stopEvents = player.onEvent((event) => counter.onEvent(event));
    return () => {
      stopState();
      stopEvents();
    };
  }, [client]);
}
