import type { SongListEntry } from '@encore/common/library.contract';
import type { AudioOutput } from './audio-output';
import type { ReplayGain } from './loudness';
import type { RepeatMode } from './play-queue';

/** The height the player bar takes, reserved at the bottom of the page while it shows. */
export const PLAYER_BAR_SPACE_CLASS = 'pb-24';

/**
 * The CSS custom property on the document root that holds the bar's height while it shows
 * (none otherwise), so what floats above it (the radio strip) clears it.
 */
export const PLAYER_BAR_HEIGHT_VAR = '--player-bar-height';

/** What the player is doing: the state the bar, the song page and playlist pages read. */
export interface PlayerState {
  /** The list next/previous move within (the filtered list the song was chosen from). */
  queue: readonly SongListEntry[];
  /** Position of `current` in `queue`; -1 when nothing is selected. */
  index: number;
  /** A list the server pages: where `queue` starts in it, and how many songs it has in all. */
  queueOffset: number;
  queueTotal: number;
  current: SongListEntry | null;
  /** Who started the queue ('library', 'song', 'playlist:7'...), so a page can tell it is its own. */
  source: string | null;
  /** The Next and Previous buttons wrap around the ends (the music list, SPEC 4); a playlist's stop there. */
  wrap: boolean;
  /**
   * What happens when the song playing ends. off: the list plays through once and stops; all:
   * round and round; one: the song again. The listener's choice: it starts off and stays as
   * set from one list to the next.
   */
  repeat: RepeatMode;
  /** The queue was put in a random order (every song once before any repeats). */
  shuffle: boolean;
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
  /** The normalisation gain applied to the song playing, in dB (0 when off or unknown). */
  gainDb: number;
}

/**
 * A queue over a list the server pages (the music page): `queue` is the part loaded so far,
 * and next/previous past its ends load the neighbouring page.
 */
export interface QueuePages {
  /** Where the songs handed to playQueue start in the whole list. */
  offset: number;
  total: number;
  /** Songs per page asked for. */
  limit: number;
  load(offset: number, limit: number): Promise<readonly SongListEntry[]>;
}

export interface PlayQueueOptions {
  /** The list is one page of a longer one (see QueuePages). */
  pages?: QueuePages;
  wrap?: boolean;
  skipUnplayable?: boolean;
  source?: string | null;
  /** Start here (seconds) instead of at the beginning: a click on a song page's seek bar. */
  startAt?: number;
}

export type PlayerEvent =
  | { type: 'ended'; song: SongListEntry }
  | { type: 'finished'; source: string | null }
  /** The song could not be played (no stream URL, the stream failed, or the browser refused it). */
  | { type: 'error'; song: SongListEntry; source: string | null }
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

/** What one song needs to play: where to stream it from, and its loudness. */
export interface ResolvedSong {
  url: string;
  /** The song is played from a copy in this browser (a playlist saved for offline). */
  offline?: boolean;
  /** Called when the deck lets the song go (frees a blob URL). */
  release?: () => void;
  /** The song's bytes when they are already in this browser (a blob URL cannot be fetched under the app's CSP). */
  bytes?: () => Promise<ArrayBuffer>;
}

export interface PlayerDependencies {
  createMedia: () => PlayerMedia;
  fetchPlayUrl: (songId: number, signal: AbortSignal) => Promise<string>;
  /** The play URL could not be fetched: tell the user. */
  onUrlError: (error: unknown) => void;
  /** A copy saved in this browser, played instead of the server's stream when there is one. */
  resolveOffline?: (songId: number) => Promise<ResolvedSong | null>;
  /** The song's ReplayGain values (`GET /api/files/{id}`); null when unknown or unreachable. */
  fetchReplayGain?: (songId: number, signal: AbortSignal) => Promise<ReplayGain | null>;
  /** The Web Audio path (normalisation, crossfade, gapless); none in tests of the queue alone. */
  output?: AudioOutput | null;
  /** Marks the element playing now (browser tests and dev tools find it as `audio[data-encore-player]`). */
  markActive?: (media: PlayerMedia, active: boolean) => void;
}

export const idlePlayer: Omit<PlayerState, 'volume' | 'gainDb'> & { gainDb: number } = {
  queue: [],
  index: -1,
  queueOffset: 0,
  queueTotal: 0,
  current: null,
  source: null,
  wrap: true,
  repeat: 'off',
  shuffle: false,
  skipUnplayable: false,
  loading: false,
  ready: false,
  isPlaying: false,
  currentTime: 0,
  duration: 0,
  gainDb: 0,
};

/** Next is offered where a neighbour exists; in a wrapping list any list of two or more has one. */
export function hasNext(state: PlayerState): boolean {
  const total = Math.max(state.queue.length, state.queueTotal);
  if (state.index < 0 || total < 2) return false;
  return wraps(state) || state.queueOffset + state.index < total - 1;
}

export function hasPrevious(state: PlayerState): boolean {
  const total = Math.max(state.queue.length, state.queueTotal);
  if (state.index < 0 || total < 2) return false;
  return wraps(state) || state.queueOffset + state.index > 0;
}

/** The buttons go round the ends in a wrapping list, and in any list the listener repeats. */
function wraps(state: PlayerState): boolean {
  return state.wrap || state.repeat === 'all';
}
