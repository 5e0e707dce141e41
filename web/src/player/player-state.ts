import type { Song } from '@encore/common/library.contract';

/** The height the player bar takes, reserved at the bottom of the page while it shows. */
export const PLAYER_BAR_SPACE_CLASS = 'pb-24';

/** What the player is doing: the state the bar, the song page and playlist pages read. */
export interface PlayerState {
  /** The list next/previous move within (the filtered list the song was chosen from). */
  queue: readonly Song[];
  /** Position of `current` in `queue`; -1 when nothing is selected. */
  index: number;
  current: Song | null;
  /** Who started the queue ('library', 'song', 'playlist:7'...), so a page can tell it is its own. */
  source: string | null;
  /** Next/previous wrap around the ends (the music list); a playlist plays through once. */
  wrap: boolean;
  /** A song that cannot be played is passed over (a playlist) instead of stopping the queue. */
  skipUnplayable: boolean;
  /** The play URL is being fetched or the metadata is loading. */
  loading: boolean;
  /** Metadata has loaded: the controls are enabled (SPEC 4). */
  ready: boolean;
  isPlaying: boolean;
  currentTime: number;
  duration: number;
  volume: number;
}

export interface PlayQueueOptions {
  wrap?: boolean;
  skipUnplayable?: boolean;
  source?: string | null;
  /** Start here (seconds) instead of at the beginning: a click on a song page's seek bar. */
  startAt?: number;
}

export type PlayerEvent =
  | { type: 'ended'; song: Song }
  | { type: 'finished'; source: string | null }
  /** The song could not be played (no stream URL, the stream failed, or the browser refused it). */
  | { type: 'error'; song: Song; source: string | null }
  /** Every song of a `skipUnplayable` queue failed one after another. */
  | { type: 'unplayable'; source: string | null }
  | { type: 'closed' };

/** The part of HTMLAudioElement the player uses; tests hand in a fake with the same shape. */
export interface PlayerMedia {
  src: string;
  currentTime: number;
  readonly duration: number;
  volume: number;
  readonly paused: boolean;
  play(): Promise<void>;
  pause(): void;
  load(): void;
  removeAttribute(name: string): void;
  addEventListener(type: string, listener: () => void): void;
}

export interface PlayerDependencies {
  createMedia: () => PlayerMedia;
  fetchPlayUrl: (songId: number, signal: AbortSignal) => Promise<string>;
  /** The play URL could not be fetched: tell the user. */
  onUrlError: (error: unknown) => void;
}

export const idlePlayer: Omit<PlayerState, 'volume'> = {
  queue: [],
  index: -1,
  current: null,
  source: null,
  wrap: true,
  skipUnplayable: false,
  loading: false,
  ready: false,
  isPlaying: false,
  currentTime: 0,
  duration: 0,
};

/** Next is offered where a neighbour exists; in a wrapping list any list of two or more has one. */
export function hasNext(state: PlayerState): boolean {
  if (state.index < 0 || state.queue.length < 2) return false;
  return state.wrap || state.index < state.queue.length - 1;
}

export function hasPrevious(state: PlayerState): boolean {
  if (state.index < 0 || state.queue.length < 2) return false;
  return state.wrap || state.index > 0;
}
