import { PLAYER_INITIAL_VOLUME } from '@encore/common/constants';
import type { SongListEntry } from '@encore/common/library.contract';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { toastApiError } from '../lib/api-error-toast';
import { createStore } from '../lib/create-store';
import { translate } from '../lib/i18n/i18n.store';
import { sessionStore } from '../lib/session.store';
import { AudioOutput } from './audio-output';
import { createDeckJoin, type DeckJoin } from './deck-join';
import { songGain, type ReplayGain, type SongGain } from './loudness';
import { playerSettings, type PlayerSettings } from './player-settings';
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
  type ResolvedSong,
} from './player-state';
import {
  append,
  clearUpcoming,
  insertNext,
  move,
  removeAt,
  reshuffleRound,
  shuffleFromCurrent,
  unshuffle,
  type QueueSnapshot,
  type RepeatMode,
} from './play-queue';

function finite(value: number): number | null {
  return Number.isFinite(value) && value > 0 ? value : null;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** One media element and what is loaded into it. Two decks let the next song wait ready. */
export interface Deck {
  media: PlayerMedia;
  /** The song in the element (the prepared next song, on the deck that is not playing). */
  song: SongListEntry | null;
  resolved: ResolvedSong | null;
  replayGain: ReplayGain | null;
  /** The element has read the song's header. */
  ready: boolean;
}

/**
 * The app's one audio player (SPEC 2 "Player bar", SPEC 4; issue 30). It owns the media
 * elements for the whole app, so music keeps playing while the user moves between pages; the
 * bar, the song page and playlist pages drive it through `player` and read it through
 * `usePlayer`. Songs go through Web Audio (loudness normalisation, crossfade, gapless joins)
 * when it runs. See README.md.
 */
export function createPlayer(deps: PlayerDependencies, settingsSource = playerSettings) {
  const store = createStore<PlayerState>({ ...idlePlayer, volume: PLAYER_INITIAL_VOLUME });
  const listeners = new Set<(event: PlayerEvent) => void>();
  const output = deps.output ?? null;
  output?.setVolume(store.getState().volume);
  const decks: Deck[] = [];
  let active = 0;
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
  /** The queue before shuffle: its order by song id and, for a paged list, its pages, to put it back. */
  let beforeShuffle: { order: number[]; pages: QueuePages | null; queueOffset: number; queueTotal: number } | null = null;
  let join: DeckJoin | null = null;

  const emit = (event: PlayerEvent) => listeners.forEach((listener) => listener(event));

  // ---- decks ---------------------------------------------------------------------------

  function makeDeck(): Deck {
    const media = deps.createMedia();
    const deck: Deck = { media, song: null, resolved: null, replayGain: null, ready: false };
    media.volume = output?.isRouted(media as HTMLMediaElement) ? 1 : store.getState().volume;
    const isActive = () => decks[active] === deck;
    media.addEventListener('loadedmetadata', () => {
      deck.ready = true;
      if (isActive()) onMetadata(deck);
      else join?.onPreparedReady(deck);
    });
    media.addEventListener('durationchange', () => {
      const duration = finite(media.duration);
      if (isActive() && duration !== null && store.getState().current) store.setState({ duration });
    });
    media.addEventListener('timeupdate', () => {
      if (!isActive()) return;
      if (store.getState().ready) store.setState({ currentTime: media.currentTime });
      join?.onTick();
    });
    media.addEventListener('play', () => {
      if (!isActive()) return;
      failedInRow = 0;
      store.setState({ isPlaying: true });
    });
    media.addEventListener('pause', () => {
      if (isActive()) store.setState({ isPlaying: false });
    });
    media.addEventListener('ended', () => {
      if (isActive()) onEnded();
      else join?.onIdleEnded(deck);
    });
    media.addEventListener('error', () => {
      if (isActive()) onMediaError();
      else join?.onPreparedFailed(deck);
    });
    return deck;
  }

  function activeDeck(): Deck {
    const existing = decks[active];
    if (existing) return existing;
    const made = makeDeck();
    decks[active] = made;
    deps.markActive?.(made.media, true);
    return made;
  }

  function element(): PlayerMedia {
    return activeDeck().media;
  }

  /** The deck not playing, made on first need. */
  function idleDeck(): Deck {
    activeDeck();
    const other = 1 - active;
    if (!decks[other]) {
      decks[other] = makeDeck();
      deps.markActive?.(decks[other].media, false);
    }
    return decks[other];
  }

  function releaseDeck(deck: Deck): void {
    deck.resolved?.release?.();
    deck.resolved = null;
    deck.song = null;
    deck.replayGain = null;
    deck.ready = false;
  }

  function stopDeck(deck: Deck): void {
    const { media } = deck;
    if (!media.paused) media.pause();
    if (media.src) {
      media.removeAttribute('src');
      media.load(); // releases the stream
    }
    releaseDeck(deck);
  }

  /** Routes the deck through Web Audio when it can run (only after the user did something). */
  function route(deck: Deck): void {
    if (!output) return;
    const media = deck.media as HTMLMediaElement;
    if (output.deck(media)) media.volume = 1;
  }

  // ---- loudness ------------------------------------------------------------------------

  function gainFor(deck: Deck, settings: PlayerSettings = settingsSource.getState()): SongGain {
    return songGain(deck.replayGain, settings);
  }

  /** Applies the normalisation of the song on `deck` (and, for the one playing, the limiter). */
  function applyGain(deck: Deck): void {
    const gain = gainFor(deck);
    if (output) output.setLevel(deck.media as HTMLMediaElement, gain.gain);
    if (decks[active] === deck) {
      output?.setLimiter(gain.needsLimiter);
      store.setState({ gainDb: Math.round(gain.gainDb * 10) / 10 });
    }
  }

  settingsSource.subscribe(() => {
    for (const deck of decks) if (deck.song) applyGain(deck);
    join?.onSettingsChanged();
  });

  async function resolve(song: SongListEntry, signal: AbortSignal): Promise<{ resolved: ResolvedSong; replayGain: ReplayGain | null }> {
    const gain = deps.fetchReplayGain ? deps.fetchReplayGain(song.id, signal).catch(() => null) : Promise.resolve(null);
    const offline = deps.resolveOffline ? await deps.resolveOffline(song.id).catch(() => null) : null;
    const resolved = offline ?? { url: await deps.fetchPlayUrl(song.id, signal) };
    return { resolved, replayGain: await gain };
  }

  /** Sets the element's source; a URL of another origin asks for CORS, so Web Audio may hear it. */
  function setSource(media: PlayerMedia, url: string): void {
    if ('crossOrigin' in media && typeof location !== 'undefined') {
      const element = media as HTMLMediaElement;
      const crossOrigin = !url.startsWith('blob:') && new URL(url, location.href).origin !== location.origin;
      if (crossOrigin) element.crossOrigin = 'anonymous';
      else element.removeAttribute('crossorigin');
    }
    media.src = url;
    media.load();
  }

  // ---- the song playing ----------------------------------------------------------------

  function onMetadata(deck: Deck): void {
    const state = store.getState();
    const media = deck.media;
    if (!state.current) return;
    if (startAt > 0) media.currentTime = startAt;
    store.setState({
      ready: true,
      loading: false,
      duration: finite(media.duration) ?? state.current.durationSeconds ?? 0,
      currentTime: startAt,
    });
    startAt = 0;
    if (autoplay) void attemptPlay().then((started) => started || songFailed(state.current));
  }

  /**
   * Starts the element. True when it plays, or when the browser only declined (a blocked
   * autoplay, a play() interrupted because the user moved on): the state is then paused and the
   * song is not at fault. False when the song cannot be played. Errors are logged (SPEC 4).
   */
  async function attemptPlay(): Promise<boolean> {
    const deck = activeDeck();
    output?.wake();
    route(deck);
    applyGain(deck);
    try {
      await deck.media.play();
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

  /** Where the queue goes when the song playing ends by itself: an index, or null to stop. */
  function followingIndex(state: PlayerState): number | null {
    if (state.index < 0) return null;
    if (state.repeat === 'one') return state.index;
    if (state.index + 1 < state.queue.length) return state.index + 1;
    if (pages && pages.total > state.queue.length) return null; // the next page: step() loads it
    return state.repeat === 'all' && state.queue.length > 0 ? 0 : null;
  }

  function onEnded(): void {
    const state = store.getState();
    if (!state.current) return;
    if (join?.takeOverAtEnd()) return;
    emit({ type: 'ended', song: state.current });
    if (state.repeat === 'one') {
      element().currentTime = 0;
      void attemptPlay();
      return;
    }
    const atEnd = state.queueOffset + state.index >= Math.max(state.queue.length, state.queueTotal) - 1;
    if (state.shuffle && state.repeat === 'all' && atEnd && state.queue.length > 1) {
      // A new round of a shuffled queue: every song again, in a new order.
      const round = reshuffleRound(state.queue, state.current);
      store.setState({ queue: round, index: 0 });
      void load(0);
      return;
    }
    if (hasNext(state) && (!atEnd || state.repeat === 'all')) {
      void step(1);
      return;
    }
    // One song, or the end of a list not repeated: stopped, back at the start.
    element().currentTime = 0;
    store.setState({ isPlaying: false, currentTime: 0 });
    if (state.queue.length > 1 || !state.wrap) emit({ type: 'finished', source: state.source });
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

  async function load(index: number, resume?: { resumeAt: number; autoplay: boolean }): Promise<void> {
    const state = store.getState();
    const song = state.queue[index];
    if (!song) return;
    join?.cancel();
    const mine = ++generation;
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    // The next song already waiting on the other deck: play that deck.
    const idle = decks[1 - active];
    if (!resume && idle?.song?.id === song.id && idle.resolved) {
      const previous = activeDeck();
      join?.adoptPrepared(idle);
      swapDecks();
      stopDeck(previous);
      retried = false;
      autoplay = true;
      store.setState({ index, current: song, loading: !idle.ready, ready: false, isPlaying: false, currentTime: startAt, duration: song.durationSeconds ?? 0 });
      applyGain(idle);
      if (idle.ready) {
        idle.media.currentTime = 0;
        onMetadata(idle);
      }
      return;
    }
    const deck = activeDeck();
    if (!deck.media.paused) deck.media.pause();
    join?.reset();
    if (idle?.song) stopDeck(idle);
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
    let answer: Awaited<ReturnType<typeof resolve>>;
    try {
      answer = await resolve(song, signal);
    } catch (error) {
      if (mine !== generation) return;
      store.setState({ loading: false });
      // A playlist says 'Error playing song' and goes on; elsewhere the fetch failure is toasted.
      if (store.getState().skipUnplayable) songFailed(song);
      else deps.onUrlError(error);
      return;
    }
    if (mine !== generation) {
      answer.resolved.release?.();
      return;
    }
    if (resume) startAt = resume.resumeAt;
    // A song that was paused when its URL expired stays paused once the fresh one loads.
    autoplay = resume?.autoplay ?? true;
    deck.resolved?.release?.();
    Object.assign(deck, { song, resolved: answer.resolved, replayGain: answer.replayGain, ready: false });
    applyGain(deck);
    setSource(deck.media, answer.resolved.url);
  }

  /** The other deck becomes the one playing. */
  function swapDecks(): void {
    const previous = decks[active];
    active = 1 - active;
    if (previous) deps.markActive?.(previous.media, false);
    const now = decks[active];
    if (now) deps.markActive?.(now.media, true);
  }

  function stopAll(): void {
    join?.reset();
    for (const deck of decks) stopDeck(deck);
  }

  // ---- the queue as data ---------------------------------------------------------------

  /** An edit makes a paged list plain data: the songs loaded so far are the queue. */
  function detachPages(): void {
    if (!pages) return;
    pages = null;
    queueGeneration += 1;
    const state = store.getState();
    store.setState({ queueOffset: 0, queueTotal: state.queue.length });
  }

  function commitQueue(next: QueueSnapshot): void {
    store.setState({ queue: next.queue, index: next.index, queueTotal: next.queue.length, queueOffset: 0 });
    join?.onQueueChanged();
  }

  function snapshot(): QueueSnapshot {
    const { queue, index } = store.getState();
    return { queue, index };
  }

  // ---- the API -------------------------------------------------------------------------

  const api = {
    getState: store.getState,
    subscribe: store.subscribe,

    /** Plays `songs[startIndex]` with `songs` as the list next/previous move within. */
    playQueue(songs: readonly SongListEntry[], startIndex = 0, options: PlayQueueOptions = {}): void {
      if (songs.length === 0) return;
      output?.wake();
      const index = clamp(Math.trunc(startIndex), 0, songs.length - 1);
      startAt = Math.max(0, options.startAt ?? 0);
      failedInRow = 0;
      queueGeneration += 1;
      pages = options.pages ?? null;
      const paged = { queueOffset: pages?.offset ?? 0, queueTotal: Math.max(pages?.total ?? 0, songs.length) };
      const wrap = options.wrap ?? true;
      store.setState({
        ...paged,
        queue: [...songs],
        wrap,
        shuffle: false,
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
      if (state.source !== source || !state.current || state.shuffle) return;
      const currentId = state.current.id;
      const index = songs.findIndex((song) => song.id === currentId);
      if (index < 0) return;
      const same = songs.length === state.queue.length && songs.every((song, i) => song.id === state.queue[i]?.id);
      if (!same) commitQueue({ queue: [...songs], index });
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

    /** Plays the song at `index` of the queue (a click in the queue panel). */
    playAt(index: number): void {
      const state = store.getState();
      if (index < 0 || index >= state.queue.length) return;
      output?.wake();
      startAt = 0;
      void load(index);
    },

    /** Songs to play right after the one playing; they start at once when nothing plays. */
    addNext(songs: readonly SongListEntry[]): void {
      if (songs.length === 0) return;
      if (!store.getState().current) return api.playQueue(songs, 0, { source: 'queue', wrap: false });
      detachPages();
      commitQueue(insertNext(snapshot(), songs));
    },

    /** Songs at the end of the queue; they start at once when nothing plays. */
    addToQueue(songs: readonly SongListEntry[]): void {
      if (songs.length === 0) return;
      if (!store.getState().current) return api.playQueue(songs, 0, { source: 'queue', wrap: false });
      detachPages();
      commitQueue(append(snapshot(), songs));
    },

    /** Moves a song within the queue (drag and drop, or the keyboard in the queue panel). */
    moveInQueue(from: number, to: number): void {
      detachPages();
      commitQueue(move(snapshot(), from, to));
    },

    /** Takes a song out of the queue; taking the song playing plays the one after it. */
    removeFromQueue(at: number): void {
      const state = store.getState();
      if (at < 0 || at >= state.queue.length) return;
      detachPages();
      const next = removeAt(snapshot(), at);
      if (next.queue.length === 0) return api.close();
      const wasCurrent = at === state.index;
      commitQueue(next);
      if (wasCurrent) void load(next.index);
    },

    /** Empties the queue but for the song playing. */
    clearQueue(): void {
      detachPages();
      beforeShuffle = null;
      commitQueue(clearUpcoming(snapshot()));
    },

    setShuffle(on: boolean): void {
      const state = store.getState();
      if (on === state.shuffle) return;
      if (on) {
        beforeShuffle = { order: state.queue.map((song) => song.id), pages, queueOffset: state.queueOffset, queueTotal: state.queueTotal };
        detachPages();
        commitQueue(shuffleFromCurrent(snapshot()));
      } else {
        const before = beforeShuffle;
        beforeShuffle = null;
        commitQueue(unshuffle(snapshot(), before?.order ?? []));
        // The same songs as before: a paged list gets its place in the whole list back.
        const ids = store.getState().queue.map((song) => song.id);
        if (before?.pages && ids.length === before.order.length && ids.every((id, i) => id === before.order[i])) {
          pages = before.pages;
          queueGeneration += 1;
          store.setState({ queueOffset: before.queueOffset, queueTotal: before.queueTotal });
        }
      }
      store.setState({ shuffle: on });
    },

    setRepeat(repeat: RepeatMode): void {
      store.setState({ repeat });
      join?.onQueueChanged();
    },

    /**
     * Puts back a queue saved earlier (another tab, another device): the songs, the one that
     * was playing and where, loaded but paused. Does nothing while something plays here.
     */
    restoreQueue(songs: readonly SongListEntry[], currentIndex: number, positionSeconds: number): void {
      const state = store.getState();
      if (state.current || songs.length === 0) return;
      const index = clamp(Math.trunc(currentIndex), 0, songs.length - 1);
      queueGeneration += 1;
      pages = null;
      store.setState({
        queue: [...songs],
        queueOffset: 0,
        queueTotal: songs.length,
        wrap: false,
        shuffle: false,
        skipUnplayable: false,
        source: 'queue',
      });
      startAt = Math.max(0, positionSeconds);
      void load(index, { resumeAt: Math.max(0, positionSeconds), autoplay: false });
    },

    /** Plays the current song; resolves false when nothing is loaded or the browser refused. */
    play(): Promise<boolean> {
      return store.getState().ready ? attemptPlay() : Promise.resolve(false);
    },

    pause(): void {
      if (!store.getState().ready) return;
      join?.cancel();
      element().pause();
    },

    /** Play/pause; does nothing until the metadata has loaded. */
    toggle(): void {
      if (!store.getState().ready) return;
      if (element().paused) void attemptPlay();
      else api.pause();
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
      const deck = decks[active];
      if (!state.ready || !deck) return state.currentTime;
      return deck.media.currentTime;
    },

    /** Moves to `seconds` within the song. */
    seek(seconds: number): void {
      const state = store.getState();
      if (!state.ready) return;
      join?.cancel();
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
      output?.setVolume(value);
      for (const deck of decks) if (!output?.isRouted(deck.media as HTMLMediaElement)) deck.media.volume = value;
      store.setState({ volume: value });
    },

    /** Stops, forgets the song and the list, and hides the bar. */
    close(): void {
      generation += 1;
      queueGeneration += 1;
      pages = null;
      beforeShuffle = null;
      controller?.abort();
      controller = null;
      startAt = 0;
      const wasOpen = store.getState().current !== null;
      stopAll();
      // Repeat is the listener's choice: it outlives the list.
      store.setState({ ...idlePlayer, repeat: store.getState().repeat });
      if (wasOpen) emit({ type: 'closed' });
    },

    /** Follows what happens to the queue (a song ended, a non-wrapping list finished, closed). */
    onEvent(listener: (event: PlayerEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  if (output) {
    join = createDeckJoin({
      output,
      store,
      settings: () => settingsSource.getState(),
      activeDeck,
      idleDeck,
      followingIndex: () => followingIndex(store.getState()),
      resolve,
      setSource,
      stopDeck,
      route,
      applyGain,
      /** The join happened: the prepared deck plays the song at `index`. */
      handOver(index: number) {
        const state = store.getState();
        const previous = activeDeck();
        const song = state.queue[index];
        if (!song) return;
        if (state.current) emit({ type: 'ended', song: state.current });
        swapDecks();
        const now = activeDeck();
        ++generation;
        retried = false;
        failedInRow = 0;
        store.setState({
          index,
          current: song,
          loading: false,
          ready: true,
          isPlaying: !now.media.paused,
          currentTime: now.media.currentTime,
          duration: finite(now.media.duration) ?? song.durationSeconds ?? 0,
        });
        applyGain(now);
        // The song that ended keeps its element until the join is over (the join stops it).
        void previous;
      },
    });
  }
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
  // In the document (hidden) so browser tests and dev tools can find the player.
  audio.hidden = true;
  document.body.append(audio);
  return audio;
}

function markActive(media: PlayerMedia, isActive: boolean): void {
  const element = media as HTMLAudioElement;
  // The element playing now is `audio[data-encore-player]`; the other waits with the next song.
  if (isActive) {
    element.dataset['encorePlayer'] = '';
    delete element.dataset['encoreNext'];
    // First in the document, so `querySelector` finds the one playing.
    if (element.parentElement && element.parentElement.firstElementChild !== element) element.parentElement.prepend(element);
  } else {
    delete element.dataset['encorePlayer'];
    element.dataset['encoreNext'] = '';
  }
}

const browserOutput = typeof window !== 'undefined' && typeof window.AudioContext === 'function' ? new AudioOutput() : null;

export const player = createPlayer({
  createMedia: createAudioElement,
  markActive,
  output: browserOutput,
  // Loaded with the first song played: the landing page need not download the contracts.
  fetchPlayUrl: async (id, signal) => (await import('./player.api')).fetchPlayUrl(id, signal),
  fetchReplayGain: async (id, signal) => (await import('./player.api')).fetchReplayGain(id, signal),
  resolveOffline: async (id) => (await import('../offline/offline-songs')).offlineSong(id),
  onUrlError: (error) => toastApiError(error, { fallback: translate('fetchSongUrlFailed') }),
});

/**
 * The queue follows the user and plays are counted (listening-services.ts) from the first time
 * someone is signed in on this page; loaded only then, so the landing page does not carry it.
 * Unit tests drive their own players and leave it out.
 */
function startListeningWhenSignedIn(): void {
  let started = false;
  const start = () => {
    if (started || !sessionStore.getState().isLoggedIn) return;
    started = true;
    void import('./listening-services').then((services) => services.startListeningServices(player));
  };
  sessionStore.subscribe(start);
  start();
}
if (typeof window !== 'undefined' && import.meta.env.MODE !== 'test') startListeningWhenSignedIn();

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
