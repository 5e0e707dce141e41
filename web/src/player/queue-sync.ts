import type { SongListEntry } from '@encore/common/library.contract';
import { listeningEndpoints, MAX_QUEUE_SONGS, type PlayQueue } from '@encore/common/listening.contract';
import { isApiError, type ResponseSchema } from '../lib/api-client';
import { callEndpoint, endpointUrl } from '../lib/endpoint-client';
import { translate } from '../lib/i18n/i18n.store';
import { readStoredToken } from '../lib/session-storage';
import { sessionStore } from '../lib/session.store';
import type { PlayerState } from './player-state';
import type { Player } from './player.store';

/**
 * The play queue follows the user (issue 30): saved to the server (`PUT /api/player/queue`,
 * the same queue as Subsonic's savePlayQueue) a moment after it changes and every so often
 * while a song plays, and restored, paused, when the app opens signed in with nothing playing.
 */

/** Changes are saved this long after the last one. */
export const QUEUE_SAVE_DELAY_MS = 1000;
/** While a song plays, where it is is saved this often. */
const POSITION_SAVE_MS = 15_000;
/** Without the server's songs, this many around the current one are fetched one by one. */
const RESTORE_FETCH_LIMIT = 200;

interface QueueAnswer extends PlayQueue {
  songs?: SongListEntry[];
}

const queueAnswer: ResponseSchema<QueueAnswer> = {
  safeParse(value) {
    const raw = value as Partial<QueueAnswer> | null;
    if (!raw || !Array.isArray(raw.songIds)) return { success: false, error: new Error('Not a queue') };
    return {
      success: true,
      data: {
        songIds: raw.songIds.filter((id) => typeof id === 'number'),
        current: typeof raw.current === 'number' ? raw.current : null,
        positionSeconds: typeof raw.positionSeconds === 'number' ? raw.positionSeconds : 0,
        ...(Array.isArray(raw.songs) ? { songs: raw.songs } : {}),
      },
    };
  },
};

/** What the server keeps of the player's state: at most MAX_QUEUE_SONGS songs around the current one. */
export function queueOf(state: Pick<PlayerState, 'queue' | 'index' | 'current' | 'currentTime'>): PlayQueue {
  const start = Math.max(0, Math.min(state.index - Math.floor(MAX_QUEUE_SONGS / 2), state.queue.length - MAX_QUEUE_SONGS));
  return {
    songIds: state.queue.slice(start, start + MAX_QUEUE_SONGS).map((song) => song.id),
    current: state.current?.id ?? null,
    positionSeconds: Math.max(0, Math.min(24 * 3600, Math.round(state.currentTime * 10) / 10)),
  };
}

function sameQueue(a: PlayQueue | null, b: PlayQueue): boolean {
  return !!a && a.current === b.current && a.songIds.length === b.songIds.length && a.songIds.every((id, i) => id === b.songIds[i]);
}

async function fetchSongs(ids: readonly number[]): Promise<SongListEntry[]> {
  const { fetchSong } = await import('./player.api');
  const found: (SongListEntry | null)[] = new Array<SongListEntry | null>(ids.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const at = next++;
      // A song deleted since is left out; any other failure (offline, the page going away)
      // gives up the restore rather than put back part of the queue.
      found[at] = await fetchSong(ids[at] ?? 0).catch((error: unknown) => {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return found.filter((song): song is SongListEntry => song !== null);
}

/** Starts following the session: restores on sign-in, saves while signed in. Returns a stop function. */
export function startQueueSync(player: Player): () => void {
  let restoredFor: string | null = null;
  let ready = false;
  let saved: PlayQueue | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastPositionSave = 0;

  const save = (queue: PlayQueue, keepalive = false) => {
    saved = queue;
    lastPositionSave = Date.now();
    if (keepalive) {
      const token = readStoredToken();
      void fetch(endpointUrl(listeningEndpoints.saveQueue, {}), {
        method: listeningEndpoints.saveQueue.method,
        keepalive: true,
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(queue),
      }).catch(() => undefined);
      return;
    }
    void callEndpoint(listeningEndpoints.saveQueue, { body: queue, schema: queueAnswer, fallbackMessage: translate('saveQueueFailed') }).catch(() => {
      saved = null; // tried again at the next change
    });
  };

  const restore = async () => {
    const token = readStoredToken();
    if (!token || restoredFor === token) return;
    restoredFor = token;
    ready = false;
    try {
      const answer = await callEndpoint(listeningEndpoints.getQueue, { schema: queueAnswer, fallbackMessage: translate('loadQueueFailed') });
      saved = { songIds: answer.songIds, current: answer.current, positionSeconds: answer.positionSeconds };
      if (answer.songIds.length > 0 && !player.getState().current) {
        let songs = answer.songs;
        let ids = answer.songIds;
        if (!songs) {
          const at = Math.max(0, answer.current === null ? 0 : answer.songIds.indexOf(answer.current));
          const start = Math.max(0, Math.min(at - RESTORE_FETCH_LIMIT / 2, answer.songIds.length - RESTORE_FETCH_LIMIT));
          ids = answer.songIds.slice(start, start + RESTORE_FETCH_LIMIT);
          songs = await fetchSongs(ids);
        }
        const index = songs.findIndex((song) => song.id === answer.current);
        if (songs.length > 0 && readStoredToken() === token) player.restoreQueue(songs, Math.max(0, index), index >= 0 ? answer.positionSeconds : 0);
      }
    } catch {
      // Offline, or the server has no queue: nothing to restore; saving still goes on.
    } finally {
      ready = true;
    }
  };

  const onPlayer = () => {
    if (!ready || !sessionStore.getState().isLoggedIn) return;
    const state = player.getState();
    if (state.loading) return;
    const queue = queueOf(state);
    const changed = !sameQueue(saved, queue);
    const positionDue = state.isPlaying && Date.now() - lastPositionSave > POSITION_SAVE_MS;
    if (!changed && !positionDue) return;
    // One save waits at a time and sends the state as it is then: the position moves four
    // times a second, which must not keep pushing a change's save back.
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = null;
        save(queueOf(player.getState()));
      },
      changed ? QUEUE_SAVE_DELAY_MS : 0,
    );
  };

  let wasPlaying = false;
  /** Something played on this page since it opened: only then does leaving it save the position. */
  let playedHere = false;
  const onPause = () => {
    const playing = player.getState().isPlaying;
    if (playing) playedHere = true;
    if (wasPlaying && !playing && ready && sessionStore.getState().isLoggedIn && player.getState().current) save(queueOf(player.getState()));
    wasPlaying = playing;
  };

  const onSession = () => {
    const session = sessionStore.getState();
    if (session.isLoggedIn && !session.restoring) void restore();
    if (!session.isLoggedIn) {
      restoredFor = null;
      ready = false;
    }
  };

  const onHide = () => {
    if (!ready || !playedHere || !sessionStore.getState().isLoggedIn || !player.getState().current) return;
    save(queueOf(player.getState()), true);
  };

  const unsubscribers = [player.subscribe(onPlayer), player.subscribe(onPause), sessionStore.subscribe(onSession)];
  window.addEventListener('pagehide', onHide);
  onSession();
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    window.removeEventListener('pagehide', onHide);
    if (timer) clearTimeout(timer);
  };
}
