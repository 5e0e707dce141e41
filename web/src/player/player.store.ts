import { PLAYER_INITIAL_VOLUME } from '@encore/common/constants';
import type { SongListEntry } from '@encore/common/library.contract';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { toastApiError } from '../lib/api-error-toast';
import { createStore } from '../lib/create-store';
import { translate } from '../lib/i18n/i18n.store';
import {
  hasNext,
  hasPrevious,
  idlePlayer,
  type PlayerDependencies,
  type PlayerEvent,
  type PlayerMedia,
  type PlayerState,
  type PlayQueueOptions,
  type QueuePages,
} from './player-state';

function finite(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? value : null;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * The app's one audio player (SPEC 2 "Player bar", SPEC 4). It owns a single media element
 * for the whole app, so music keeps playing while the user moves between pages; the bar, the
 * song page and playlist pages drive it through `player` and read it through `usePlayer`.
 * See README.md.
 */
export function createPlayer(deps: PlayerDependencies) {
  const store = createStore<PlayerState>({ ...idlePlayer, volume: PLAYER_INITIAL_VOLUME });
  const listeners = new Set<(event: PlayerEvent) => void>();
  let media: PlayerMedia | null = null;
  /** Bumped on every load and on close, so a late answer for an earlier song is dropped. */
  let generation = 0;
  let controller: AbortController | null = null;
  /** Where to start once the metadata is in, and whether to start playing then. */
  let startAt = 0;
  let autoplay = true;
  /** A signed URL can expire while paused; one fresh URL per song is fetched on a media error. */
  let retried = false;
  /** Songs of a `skipUnplayable` queue that failed one after another since one last played. */
  let failedInRow = 0;
  /** The pages of a paged queue (the music page); bumped queue generation drops a late page. */
  let pages: QueuePages | null = null;
  let queueGeneration = 0;

  /**
   * Next (+1) or previous (-1) in the whole list: within the loaded songs, else the
   * neighbouring page of a paged queue (wrapping round the whole list), else round the queue.
   */
  async function step(direction: 1 | -1): Promise<void> {
    const state = store.getState();
    const target = state.index + direction;
    if (target >= 0 && target < state.queue.length) return load(target);
    if (!pages || pages.total <= state.queue.length) return load((target + state.queue.length) % state.queue.length);
    const position = (((state.queueOffset + target) % pages.total) + pages.total) % pages.total;
    const chunkOffset = Math.floor(position / pages.limit) * pages.limit;
    const mine = queueGeneration;
    let chunk: readonly SongListEntry[];
    try {
      chunk = await pages.load(chunkOffset, pages.limit);
    } catch (error) {
      deps.onUrlError(error);
      return;
    }
    if (mine !== queueGeneration || chunk.length === 0) return;
    const now = store.getState();
    const end = now.queueOffset + now.queue.length;
    const [queue, queueOffset] =
      chunkOffset === end
        ? [[...now.queue, ...chunk], now.queueOffset]
        : chunkOffset + chunk.length === now.queueOffset
          ? [[...chunk, ...now.queue], chunkOffset]
          : [[...chunk], chunkOffset];
    const index = Math.min(position - queueOffset, queue.length - 1);
    store.setState({ queue, queueOffset, index: now.index });
    return load(index);
  }

  const emit = (event: PlayerEvent) => listeners.forEach((listener) => listener(event));

  function element(): PlayerMedia {
    if (media) return media;
    const created = deps.createMedia();
    created.volume = store.getState().volume;
    created.addEventListener('loadedmetadata', () => {
      const state = store.getState();
      if (!state.current) return;
      if (startAt > 0) created.currentTime = startAt;
      store.setState({
        ready: true,
        loading: false,
        duration: finite(created.duration) ?? state.current.durationSeconds ?? 0,
        currentTime: startAt,
      });
      startAt = 0;
      if (autoplay) void attemptPlay().then((started) => started || songFailed(state.current));
    });
    created.addEventListener('durationchange', () => {
      const duration = finite(created.duration);
      if (duration !== null && store.getState().current) store.setState({ duration });
    });
    created.addEventListener('timeupdate', () => {
      if (store.getState().ready) store.setState({ currentTime: created.currentTime });
    });
    created.addEventListener('play', () => {
      failedInRow = 0;
      store.setState({ isPlaying: true });
    });
    created.addEventListener('pause', () => store.setState({ isPlaying: false }));
    created.addEventListener('ended', onEnded);
    created.addEventListener('error', onMediaError);
    media = created;
    return created;
  }

  /**
   * Starts the element. True when it plays, or when the browser only declined (a blocked
   * autoplay, a play() interrupted because the user moved on): the state is then paused and the
   * song is not at fault. False when the song cannot be played. Errors are logged (SPEC 4).
   */
  async function attemptPlay(): Promise<boolean> {
    const audio = element();
    try {
      await audio.play();
      return true;
    } catch (error) {
      console.error('Audio play failed', error);
      store.setState({ isPlaying: false });
      return isBenignPlayRejection(error);
    }
  }

  /**
   * The song cannot be played: say so, and in a queue that skips unplayable songs (a playlist)
   * go on with the next one; when every song failed, say that nothing in it can be played.
   */
  function songFailed(song: SongListEntry | null): void {
    const state = store.getState();
    if (!song || state.current?.id !== song.id) return;
    store.setState({ loading: false, isPlaying: false });
    emit({ type: 'error', song, source: state.source });
    if (!state.skipUnplayable) return;
    failedInRow += 1;
    if (failedInRow >= state.queue.length) {
      emit({ type: 'unplayable', source: state.source });
      return;
    }
    if (state.index < state.queue.length - 1) void load(state.index + 1);
    else emit({ type: 'finished', source: state.source });
  }

  function onEnded(): void {
    const state = store.getState();
    if (!state.current) return;
    emit({ type: 'ended', song: state.current });
    if (hasNext(state)) {
      void step(1);
      return;
    }
    // One song, or the end of a list that does not wrap: stopped, back at the start.
    element().currentTime = 0;
    store.setState({ isPlaying: false, currentTime: 0 });
    if (!state.wrap) emit({ type: 'finished', source: state.source });
  }

  function onMediaError(): void {
    const state = store.getState();
    const audio = element();
    if (!state.current || !audio.src) return;
    console.error('Audio playback error', state.current.displayName);
    if (!state.ready || retried) {
      songFailed(state.current);
      return;
    }
    retried = true;
    void load(state.index, { resumeAt: state.currentTime, autoplay: state.isPlaying });
  }

  async function load(index: number, resume?: { resumeAt: number; autoplay: boolean }): Promise<void> {
    const state = store.getState();
    const song = state.queue[index];
    if (!song) return;
    const mine = ++generation;
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    const audio = element();
    if (!audio.paused) audio.pause();
    if (!resume) retried = false;
    store.setState({
      index,
      current: song,
      loading: true,
      ready: false,
      isPlaying: false,
      currentTime: resume?.resumeAt ?? startAt,
      duration: song.durationSeconds ?? 0,
    });
    let url: string;
    try {
      url = await deps.fetchPlayUrl(song.id, signal);
    } catch (error) {
      if (mine !== generation) return;
      store.setState({ loading: false });
      // A playlist says 'Error playing song' and goes on; elsewhere the fetch failure is toasted.
      if (store.getState().skipUnplayable) songFailed(song);
      else deps.onUrlError(error);
      return;
    }
    if (mine !== generation) return;
    if (resume) startAt = resume.resumeAt;
    // A song that was paused when its URL expired stays paused once the fresh one loads.
    autoplay = resume?.autoplay ?? true;
    audio.src = url;
    audio.load();
  }

  function stopMedia(): void {
    const audio = media;
    if (!audio) return;
    audio.pause();
    audio.removeAttribute('src');
    audio.load(); // releases the stream
  }

  const api = {
    getState: store.getState,
    subscribe: store.subscribe,

    /** Plays `songs[startIndex]` with `songs` as the list next/previous move within. */
    playQueue(songs: readonly SongListEntry[], startIndex = 0, options: PlayQueueOptions = {}): void {
      if (songs.length === 0) return;
      const index = clamp(Math.trunc(startIndex), 0, songs.length - 1);
      startAt = Math.max(0, options.startAt ?? 0);
      failedInRow = 0;
      queueGeneration += 1;
      pages = options.pages ?? null;
      const paged = { queueOffset: pages?.offset ?? 0, queueTotal: Math.max(pages?.total ?? 0, songs.length) };
      store.setState({
        ...paged,
        queue: [...songs],
        wrap: options.wrap ?? true,
        skipUnplayable: options.skipUnplayable ?? false,
        source: options.source ?? null,
      });
      void load(index);
    },

    /**
     * The list `source` plays has changed (a playlist reordered or extended while it plays):
     * next and previous follow the new order from the current song, which plays on. A list
     * that no longer holds the current song leaves the queue as it was.
     */
    updateQueue(songs: readonly SongListEntry[], source: string): void {
      const state = store.getState();
      if (state.source !== source || !state.current) return;
      const currentId = state.current.id;
      const index = songs.findIndex((song) => song.id === currentId);
      if (index < 0) return;
      const same = songs.length === state.queue.length && songs.every((song, i) => song.id === state.queue[i]?.id);
      if (!same) store.setState({ queue: [...songs], index, queueOffset: 0, queueTotal: songs.length });
    },

    /**
     * A song chosen from a list (a card's play button): plays it within that list, or closes
     * the player when it is the song already playing (SPEC 4).
     */
    selectSong(songs: readonly SongListEntry[], song: SongListEntry, options: PlayQueueOptions = {}): void {
      if (store.getState().current?.id === song.id) {
        api.close();
        return;
      }
      const index = songs.findIndex((candidate) => candidate.id === song.id);
      if (index >= 0) api.playQueue(songs, index, options);
      else api.playQueue([song], 0, options);
    },

    /** Plays the current song; resolves false when nothing is loaded or the browser refused. */
    play(): Promise<boolean> {
      return store.getState().ready ? attemptPlay() : Promise.resolve(false);
    },

    pause(): void {
      if (store.getState().ready) element().pause();
    },

    /** Play/pause; does nothing until the metadata has loaded. */
    toggle(): void {
      if (!store.getState().ready) return;
      if (element().paused) void attemptPlay();
      else element().pause();
    },

    next(): void {
      const state = store.getState();
      if (hasNext(state)) void step(1);
    },

    previous(): void {
      const state = store.getState();
      if (hasPrevious(state)) void step(-1);
    },

    /**
     * Where the song is now, read from the media element itself: `currentTime` in the state
     * follows 'timeupdate' (a few times a second), too coarse for karaoke's word fill.
     */
    position(): number {
      const state = store.getState();
      if (!state.ready || !media) return state.currentTime;
      return media.currentTime;
    },

    /** Moves to `seconds` within the song. */
    seek(seconds: number): void {
      const state = store.getState();
      if (!state.ready) return;
      const position = clamp(seconds, 0, state.duration || seconds);
      element().currentTime = position;
      store.setState({ currentTime: position });
    },

    seekBy(deltaSeconds: number): void {
      api.seek(store.getState().currentTime + deltaSeconds);
    },

    /** 0 to 1. */
    setVolume(volume: number): void {
      const value = clamp(Number.isFinite(volume) ? volume : 0, 0, 1);
      if (media) media.volume = value;
      store.setState({ volume: value });
    },

    /** Stops, forgets the song and the list, and hides the bar. */
    close(): void {
      generation += 1;
      queueGeneration += 1;
      pages = null;
      controller?.abort();
      controller = null;
      startAt = 0;
      const wasOpen = store.getState().current !== null;
      stopMedia();
      store.setState({ ...idlePlayer });
      if (wasOpen) emit({ type: 'closed' });
    },

    /** Follows what happens to the queue (a song ended, a non-wrapping list finished, closed). */
    onEvent(listener: (event: PlayerEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return api;
}

export type Player = ReturnType<typeof createPlayer>;

function isBenignPlayRejection(error: unknown): boolean {
  // DOMExceptions are not Errors in every engine; their name is what tells them apart.
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return name === 'NotAllowedError' || name === 'AbortError';
}

function createAudioElement(): PlayerMedia {
  const audio = new Audio();
  audio.preload = 'metadata';
  // In the document (hidden) so browser tests and dev tools can find the one player.
  audio.hidden = true;
  audio.dataset['encorePlayer'] = '';
  document.body.append(audio);
  return audio;
}

export const player = createPlayer({
  createMedia: createAudioElement,
  // Loaded with the first song played: the landing page need not download the contracts.
  fetchPlayUrl: async (id, signal) => (await import('./player.api')).fetchPlayUrl(id, signal),
  onUrlError: (error) => toastApiError(error, { fallback: translate('fetchSongUrlFailed') }),
});

/** Reads the player in a component; the selector must return a stable value. */
export function usePlayer<S>(selector: (state: PlayerState) => S): S {
  const read = () => selector(player.getState());
  return useSyncExternalStore(player.subscribe, read, read);
}

/** Calls `listener` on every player event while the component is mounted. */
export function usePlayerEvents(listener: (event: PlayerEvent) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => player.onEvent((event) => latest.current(event)), []);
}
