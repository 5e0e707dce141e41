import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch, type RecordedRequest } from '../test/fetch-stub';
import { makeSong, signInForTest } from '../test/song-fixture';
import { BOOKMARK_SAVE_MS, createBookmarkSync } from './bookmark-sync';
import { deleteBookmark, fetchBookmark, putBookmark } from './player.api';
import type { PlayerState } from './player-state';

beforeEach(signInForTest);

const long = makeSong(7, { durationSeconds: 3600 });
const short = makeSong(8, { durationSeconds: 240 });
type View = Pick<PlayerState, 'current' | 'ready' | 'isPlaying' | 'currentTime' | 'duration'>;

/** The sync over the real bookmark calls, the server's answers canned; a clock the test moves. */
function setUp(saved: Record<number, number>) {
  const { requests } = stubFetch({
    'GET /api/bookmarks/7': () => ({
      body: { bookmark: saved[7] === undefined ? null : { songId: 7, positionMs: saved[7], comment: null, changedAt: '2026-01-01T00:00:00Z' } },
    }),
    'GET /api/bookmarks/8': { body: { bookmark: null } },
    'PUT /api/bookmarks/7': (request) => ({
      body: { songId: 7, positionMs: (request.body as { positionMs: number }).positionMs, comment: null, changedAt: '2026-01-01T00:00:00Z' },
    }),
    'PUT /api/bookmarks/8': { status: 500, body: { message: 'should not be called' } },
    'DELETE /api/bookmarks/7': { status: 204 },
  });
  let clock = 1_000_000;
  const seeks: number[] = [];
  const toasts: { seconds: number; startOver: () => void }[] = [];
  // Every bookmark call in flight, so that settle() waits for exactly those (no clock).
  const inFlight = new Set<Promise<unknown>>();
  const tracked =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const answer = call(...args);
      inFlight.add(answer);
      void answer.catch(() => undefined).finally(() => inFlight.delete(answer));
      return answer;
    };
  const sync = createBookmarkSync({
    store: { get: tracked(fetchBookmark), save: tracked(putBookmark), remove: tracked(deleteBookmark) },
    seek: (seconds) => seeks.push(seconds),
    resumed: (seconds, startOver) => toasts.push({ seconds, startOver }),
    now: () => clock,
  });
  let view: View = { current: null, ready: false, isPlaying: false, currentTime: 0, duration: 0 };
  const set = (change: Partial<View>) => {
    view = { ...view, ...change };
    sync.onState(view);
  };
  const tick = (ms: number) => {
    clock += ms;
  };
  const writes = () =>
    requests
      .filter((request: RecordedRequest) => request.method !== 'GET')
      .map((request) => `${request.method} ${request.path} ${JSON.stringify(request.body ?? null)}`);
  /** Lets every call in flight answer, and the calls those answers lead to, until none is left. */
  const settle = async () => {
    await sync.settled();
    while (inFlight.size > 0) {
      await Promise.allSettled([...inFlight]);
      await sync.settled();
    }
  };
  return { sync, set, tick, seeks, toasts, writes, requests, settle };
}

describe('bookmarks of long songs in the web player', () => {
  it('resumes a long song started from the beginning at its bookmark, saying so, with Start over', async () => {
    const { set, seeks, toasts, settle } = setUp({ 7: 754_000 });
    set({ current: long, ready: false });
    set({ ready: true, duration: 3600, isPlaying: true, currentTime: 0 });
    await settle();
    expect(seeks).toEqual([754]);
    expect(toasts.map((toast) => toast.seconds)).toEqual([754]);
    toasts[0]!.startOver();
    expect(seeks).toEqual([754, 0]);
  });

  it('saves every 15 s while playing and at a pause, never before the bookmark is read, and removes it at the end', async () => {
    const { sync, set, tick, writes, settle } = setUp({});
    set({ current: long, ready: true, duration: 3600, isPlaying: true, currentTime: 0 });
    tick(BOOKMARK_SAVE_MS); // the bookmark is still being read: position 0 must not overwrite it
    set({ currentTime: 0.5 });
    await settle();
    expect(writes()).toEqual([]);

    set({ currentTime: 10 });
    tick(BOOKMARK_SAVE_MS - 1);
    set({ currentTime: 24.9 });
    tick(1);
    set({ currentTime: 25 });
    set({ isPlaying: false, currentTime: 31.25 });
    await settle();
    expect(writes()).toEqual(['PUT /api/bookmarks/7 {"positionMs":25000}', 'PUT /api/bookmarks/7 {"positionMs":31250}']);

    // Played to the end: the pause the end brings saves nothing, the bookmark goes.
    set({ isPlaying: true, currentTime: 3599.5 });
    set({ isPlaying: false, currentTime: 3600 });
    sync.onEvent({ type: 'ended', song: long });
    await settle();
    expect(writes().slice(2)).toEqual(['DELETE /api/bookmarks/7 null']);
  });

  it('keeps the place when another song takes over, and leaves short songs and songs started mid-way alone', async () => {
    const { set, tick, writes, seeks, requests, settle } = setUp({ 7: 600_000 });
    // A restored queue starts the long song paused at 12:00: it is not moved to the bookmark.
    set({ current: long, ready: true, duration: 3600, isPlaying: false, currentTime: 720 });
    set({ isPlaying: true, currentTime: 721 });
    tick(5000);
    set({ currentTime: 726 });
    set({ current: short, ready: false, isPlaying: false, currentTime: 0, duration: 240 });
    set({ ready: true, isPlaying: true });
    tick(BOOKMARK_SAVE_MS * 2);
    set({ currentTime: 100 });
    set({ isPlaying: false, currentTime: 101 });
    await settle();
    expect(seeks).toEqual([]);
    expect(writes()).toEqual(['PUT /api/bookmarks/7 {"positionMs":726000}']);
    expect(requests.some((request) => request.path.startsWith('/api/bookmarks/8'))).toBe(false);
  });

  it('does not resume a bookmark at the very start or end of the song', async () => {
    const near = setUp({ 7: 5_000 });
    near.set({ current: long, ready: true, duration: 3600, isPlaying: true, currentTime: 0 });
    await near.settle();
    expect(near.seeks).toEqual([]);
    const end = setUp({ 7: 3_595_000 });
    end.set({ current: long, ready: true, duration: 3600, isPlaying: true, currentTime: 0 });
    await end.settle();
    expect(end.seeks).toEqual([]);
    expect(end.toasts).toEqual([]);
  });
});
