import type { PlayerEvent, PlayerState } from './player-state';

/** A play counts after half the song or this long, whichever comes first (issue 30). */
export const PLAY_COUNT_MAX_SECONDS = 240;
/** A jump of the position larger than this between two readings is a seek, not listening. */
const MAX_STEP_SECONDS = 2;

/**
 * Counts actual listening time of the song playing: the position moving forward by small
 * steps while it plays. Seeking (a jump) adds nothing. Calls `count(songId)` once per play
 * when the rule is met; the next play of the song (after it ended) counts again.
 */
export function createPlayCounter(count: (songId: number) => void) {
  let songId: number | null = null;
  let listened = 0;
  let last = 0;
  let counted = false;

  return {
    onState(state: Pick<PlayerState, 'current' | 'isPlaying' | 'currentTime' | 'duration'>): void {
      const id = state.current?.id ?? null;
      if (id !== songId) {
        songId = id;
        listened = 0;
        counted = false;
        last = state.currentTime;
        return;
      }
      if (id === null) return;
      const step = state.currentTime - last;
      last = state.currentTime;
      if (!state.isPlaying || step <= 0 || step > MAX_STEP_SECONDS) return;
      listened += step;
      const duration = state.duration > 0 ? state.duration : (state.current?.durationSeconds ?? 0);
      const needed = duration > 0 ? Math.min(duration / 2, PLAY_COUNT_MAX_SECONDS) : PLAY_COUNT_MAX_SECONDS;
      if (!counted && listened >= needed) {
        counted = true;
        count(id);
      }
    },
    onEvent(event: PlayerEvent): void {
      if (event.type === 'ended' && event.song.id === songId) {
        listened = 0;
        counted = false;
        last = 0;
      }
    },
    /** Seconds listened to the song playing (for tests). */
    listened: () => listened,
  };
}
