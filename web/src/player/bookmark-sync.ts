import { BOOKMARK_MIN_SECONDS } from '@encore/common/bookmarks.contract';
import type { PlayerEvent, PlayerState } from './player-state';

/** While a long song plays, where it is is saved this often (and at each pause). */
export const BOOKMARK_SAVE_MS = 15_000;
/** A bookmark this near either end is not worth resuming (seconds). */
export const RESUME_MARGIN_SECONDS = 10;

/** The caller's bookmarks on the server (`/api/bookmarks/:songId`), in milliseconds. */
export interface BookmarkStore {
  get(songId: number): Promise<number | null>;
  save(songId: number, positionMs: number): Promise<unknown>;
  remove(songId: number): Promise<unknown>;
}

export interface BookmarkSyncDependencies {
  store: BookmarkStore;
  seek(seconds: number): void;
  /** The player jumped to the bookmark: say so, offering to start over. */
  resumed(seconds: number, startOver: () => void): void;
  now?: () => number;
}

type Phase = 'idle' | 'checking' | 'tracking';

/**
 * Bookmarks of long songs in the web player (issue 41), the same as Subsonic's: a song longer
 * than BOOKMARK_MIN_SECONDS keeps where the listener is (every BOOKMARK_SAVE_MS while it plays,
 * at a pause, and when another song takes its place); started again from the beginning, it
 * resumes there; played to the end, its bookmark goes. A song started anywhere else (a restored
 * queue, a click on the seek bar) is not moved. Requests go one after another, so a save and the
 * removal at the end cannot overtake each other.
 */
export function createBookmarkSync(deps: BookmarkSyncDependencies) {
  const now = deps.now ?? (() => Date.now());
  let songId: number | null = null;
  let phase: Phase = 'idle';
  let lastTime = 0;
  let lastSave = 0;
  let wasPlaying = false;
  let ended = false;
  let queue: Promise<unknown> = Promise.resolve();

  const enqueue = (what: string, request: () => Promise<unknown>) => {
    queue = queue.then(request).catch((error: unknown) => console.error(`The bookmark could not be ${what}`, error));
  };
  const save = (id: number, seconds: number) => {
    lastSave = now();
    const positionMs = Math.max(0, Math.round(seconds * 1000));
    enqueue('saved', () => deps.store.save(id, positionMs));
  };
  const lengthOf = (state: Pick<PlayerState, 'current' | 'duration'>) => (state.duration > 0 ? state.duration : (state.current?.durationSeconds ?? 0));

  function checkResume(id: number, duration: number): void {
    phase = 'checking';
    deps.store
      .get(id)
      .then((positionMs) => {
        if (songId !== id || phase !== 'checking') return;
        phase = 'tracking';
        lastSave = now();
        if (positionMs === null) return;
        const seconds = positionMs / 1000;
        if (seconds < RESUME_MARGIN_SECONDS || seconds > duration - RESUME_MARGIN_SECONDS || lastTime >= seconds) return;
        deps.seek(seconds);
        deps.resumed(seconds, () => deps.seek(0));
      })
      .catch((error: unknown) => {
        if (songId === id && phase === 'checking') phase = 'tracking';
        console.error('The bookmark could not be read', error);
      });
  }

  return {
    onState(state: Pick<PlayerState, 'current' | 'ready' | 'isPlaying' | 'currentTime' | 'duration'>): void {
      const id = state.current?.id ?? null;
      if (id !== songId) {
        // The song playing gave way to another (or to none): keep where it was.
        if (songId !== null && phase === 'tracking' && !ended && lastTime > 0) save(songId, lastTime);
        songId = id;
        phase = 'idle';
        ended = false;
        lastTime = 0;
        wasPlaying = false;
      }
      if (id === null) return;
      const duration = lengthOf(state);
      if (duration <= BOOKMARK_MIN_SECONDS) {
        wasPlaying = state.isPlaying;
        return;
      }
      if (phase === 'idle' && state.ready) {
        if (state.currentTime < 1) checkResume(id, duration);
        else {
          phase = 'tracking';
          lastSave = now();
        }
      }
      if (state.isPlaying) ended = false;
      if (phase === 'tracking' && state.ready) {
        if (state.isPlaying && now() - lastSave >= BOOKMARK_SAVE_MS) save(id, state.currentTime);
        else if (wasPlaying && !state.isPlaying && !ended && state.currentTime < duration - 1) save(id, state.currentTime);
      }
      wasPlaying = state.isPlaying;
      lastTime = state.currentTime;
    },

    onEvent(event: PlayerEvent): void {
      if (event.type !== 'ended' || event.song.id !== songId) return;
      const duration = event.song.durationSeconds ?? 0;
      if (phase === 'idle' && duration <= BOOKMARK_MIN_SECONDS) return;
      ended = true;
      lastTime = 0;
      enqueue('removed', () => deps.store.remove(event.song.id));
    },

    /** Resolves once every request asked for so far is answered (for tests). */
    settled: () => queue,
  };
}
