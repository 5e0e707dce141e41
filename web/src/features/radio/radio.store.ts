import type { RadioStation } from '@encore/common/radio.contract';
import { useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { createStore } from '../../lib/create-store';
import { translate } from '../../lib/i18n/i18n.store';
import { player, type Player } from '../../player/player.store';

export interface RadioState {
  /** The station playing (or starting), or null. */
  station: RadioStation | null;
}

/** What the radio needs of the song player: pausing it, and following its volume and its starts. */
export type RadioPlayer = Pick<Player, 'pause' | 'getState' | 'subscribe'>;

export interface RadioDependencies {
  player: RadioPlayer;
  /** The station could not be played (refused, or its stream failed): tell the user. */
  onFailure: () => void;
}

function isAbort(error: unknown): boolean {
  // DOMExceptions are not Errors in every engine; their name is what tells them apart.
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/**
 * Internet radio's playback for the whole app (issue 41). A station plays in one
 * `<audio data-encore-radio>` the layout renders once (`attach`), straight from its stream URL,
 * so it keeps playing while the user moves between pages. A live stream has no duration, no
 * seeking, no play counting and no loudness gain, so it does not go through the song player; the
 * two never play together: starting a station pauses the player, and the player starting stops
 * the station. The player's volume is the radio's too. See ../../player/README.md.
 */
export function createRadio(deps: RadioDependencies) {
  const store = createStore<RadioState>({ station: null });
  let element: HTMLAudioElement | null = null;

  function stop(): void {
    if (element) {
      element.pause();
      if (element.getAttribute('src')) {
        element.removeAttribute('src');
        element.load(); // closes the stream
      }
    }
    if (store.getState().station) store.setState({ station: null });
  }

  function fail(): void {
    stop();
    deps.onFailure();
  }

  // An error of the element itself (the stream is gone, not audio): stop and say so.
  const onError = () => {
    if (element?.getAttribute('src')) fail();
  };
  // A live stream that ends has closed: nothing plays any more.
  const onEnded = () => stop();

  // The player starting a song stops the station (a start, not a song still playing: the pause
  // a station asks for lands a moment later).
  let wasPlaying = deps.player.getState().isPlaying;
  deps.player.subscribe(() => {
    const { isPlaying, volume } = deps.player.getState();
    if (element) element.volume = volume;
    if (isPlaying && !wasPlaying && store.getState().station) stop();
    wasPlaying = isPlaying;
  });

  return {
    getState: store.getState,
    subscribe: store.subscribe,

    /** The layout's element (a ref callback): the station plays in it; when it goes, the station stops. */
    attach(audio: HTMLAudioElement | null): (() => void) | undefined {
      if (!audio) return undefined;
      element = audio;
      audio.volume = deps.player.getState().volume;
      audio.addEventListener('error', onError);
      audio.addEventListener('ended', onEnded);
      return () => {
        audio.removeEventListener('error', onError);
        audio.removeEventListener('ended', onEnded);
        if (element !== audio) return;
        stop();
        element = null;
      };
    },

    /** Plays `station` in place of any other, pausing the song player. */
    start(station: RadioStation): void {
      if (!element) return;
      const audio = element;
      deps.player.pause();
      audio.src = station.streamUrl;
      store.setState({ station });
      audio.play().catch((error: unknown) => {
        // A newer start or a stop interrupted this one: nothing failed.
        if (isAbort(error)) return;
        if (store.getState().station?.id === station.id) fail();
      });
    },

    stop,

    /** A station was saved: the playing one shows its new name, and a changed stream address plays from the new one next time. */
    stationSaved(saved: RadioStation): void {
      const playing = store.getState().station;
      if (playing?.id !== saved.id) return;
      if (playing.streamUrl !== saved.streamUrl) stop();
      else store.setState({ station: saved });
    },

    /** A station was deleted: if it was playing, it stops. */
    stationDeleted(id: number): void {
      if (store.getState().station?.id === id) stop();
    },
  };
}

export type Radio = ReturnType<typeof createRadio>;

/** The app's one radio. */
export const radio = createRadio({ player, onFailure: () => toast.error(translate('radioPlayFailed')) });

/** Reads the radio in a component; the selector must return a stable value. */
export function useRadio<S>(selector: (state: RadioState) => S): S {
  const read = () => selector(radio.getState());
  return useSyncExternalStore(radio.subscribe, read, read);
}
