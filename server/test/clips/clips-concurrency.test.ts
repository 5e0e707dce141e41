import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipListResponse, ClipStatusResponse } from '@encore/common/clips.contract';
import { account, bearer, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import {
  buildClipFixtures,
  buildLongSong,
  clipStatus,
  createClip,
  downloadClip,
  pixelAt,
  probe,
  settingsOf,
  taskIdOf,
  waitForClip,
  type ClipFixtures,
} from './clips-test-kit.js';

/**
 * Renders asked for at once, by one user and by several: no more than CLIP_RENDERS_PER_PROCESS
 * run at a time (seen in the task states and in pg-boss's job table, never by timing), the
 * others wait saying so, and every one of them finishes with its own video.
 */
const SLOTS = 2;
let fixtures: ClipFixtures;
let longSong: string;
let work: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  longSong = await buildLongSong(fixtures.dir, 60);
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-concurrency-'));
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

interface TaskRow {
  state: string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

/**
 * The most render tasks that were ever running at the same instant, from their start and end in
 * the tasks table. A job's worker writes its task's end before it takes the next job, so a slot's
 * tasks never overlap. (pg-boss's own completed_on cannot tell: it writes it without waiting.)
 */
function mostAtOnce(rows: TaskRow[]): number {
  const events: [number, number][] = [];
  for (const row of rows) {
    if (!row.started_at) continue;
    events.push([new Date(row.started_at).getTime(), 1]);
    events.push([row.finished_at ? new Date(row.finished_at).getTime() : Infinity, -1]);
  }
  // At the same instant an end comes before a start.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let most = 0;
  for (const [, change] of events) {
    running += change;
    most = Math.max(most, running);
  }
  return most;
}

describe.each(engines)(`renders at once on %s (CLIP_RENDERS_PER_PROCESS=${SLOTS})`, (engine) => {
  let t: LibraryApp;
  const users = {} as Record<'alice' | 'bob' | 'carol', { token: string; songUrl: string }>;
  let aliceLongSongUrl: string;

  beforeAll(async () => {
    // Alice has four renders waiting or running at once: above the default per-user limit (2).
    t = await startLibraryApp({ engine, storage: 'local' }, { CLIP_RENDERS_PER_PROCESS: String(SLOTS), USER_MAX_RENDERS: '4' });
    for (const name of ['alice', 'bob', 'carol'] as const) {
      const token = await account(t, name);
      const { song } = await upload(t, token, fixtures.song);
      users[name] = { token, songUrl: `/music/${song.id}` };
    }
    aliceLongSongUrl = `/music/${(await upload(t, users.alice.token, longSong)).song.id}`;
  }, 60_000);
  afterAll(async () => t.close());

  const activeRenderJobs = async () => {
    const { rows } = await t.app.encore.platform.database.executor.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'clips.render' AND state = 'active'`,
      [],
    );
    return (rows as { n: number }[])[0]?.n ?? -1;
  };

  it('runs at most that many at once; the others wait in the queue saying so, then each finishes with its own video', async () => {
    const { alice, bob, carol } = users;
    // Alice starts two long renders (a minute of 4K): they fill both slots until the test stops them.
    const blockers = (
      await Promise.all(
        [0, 1].map(() =>
          createClip(t, alice.token, { settings: settingsOf({ videoQuality: 'ultra', videoFormat: 'webm', words: [] }), songUrl: aliceLongSongUrl }, [
            fixtures.red,
          ]),
        ),
      )
    ).map((response) => {
      expect(response.statusCode).toBe(202);
      return taskIdOf(response);
    });
    await expect
      .poll(async () => (await Promise.all(blockers.map((id) => clipStatus(t, alice.token, id)))).map((s) => s.status), { timeout: 60_000, interval: 100 })
      .toEqual(['running', 'running']);

    // Then Alice asks for two more, Bob and Carol for one each, all at once.
    const wave = [
      { who: alice, picture: fixtures.red, colour: 0 },
      { who: alice, picture: fixtures.blue, colour: 2 },
      { who: bob, picture: fixtures.green, colour: 1 },
      { who: carol, picture: fixtures.white, colour: -1 },
    ];
    const waiting = await Promise.all(
      wave.map(async (entry) => {
        const response = await createClip(t, entry.who.token, { settings: settingsOf({}), songUrl: entry.who.songUrl }, [entry.picture]);
        expect(response.statusCode).toBe(202);
        return { ...entry, taskId: taskIdOf(response) };
      }),
    );

    // While both long renders are running (before and after the look), all four wait.
    const before = await Promise.all(blockers.map((id) => clipStatus(t, alice.token, id)));
    const queued = await Promise.all(waiting.map((entry) => clipStatus(t, entry.who.token, entry.taskId)));
    const active = await activeRenderJobs();
    const after = await Promise.all(blockers.map((id) => clipStatus(t, alice.token, id)));
    expect([...before, ...after].map((s) => s.status)).toEqual(['running', 'running', 'running', 'running']);
    expect(active).toBe(SLOTS);
    for (const status of queued) expect(status).toMatchObject({ status: 'queued', progress: 0, video_url: null, clip_id: expect.any(Number) });
    // Each says how many are in front of it: the two running, then those asked for earlier.
    const ahead = queued.map((status) => Number(/^Waiting in the queue \((\d+) renders? ahead\)$/.exec(status.message ?? '')?.[1]));
    expect([...ahead].sort()).toEqual([2, 3, 4, 5]);

    // Stopping the long renders frees the slots: the four run, never more than two at once, and finish.
    for (const id of blockers)
      expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${id}/cancel`, headers: bearer(alice.token) })).statusCode).toBe(200);
    const finished = new Map<string, ClipStatusResponse>();
    for (let polls = 0; finished.size < waiting.length; polls++) {
      if (polls > 2000) throw new Error('the queued renders did not finish');
      const seen = await Promise.all(waiting.map(async (entry) => [entry.taskId, await clipStatus(t, entry.who.token, entry.taskId)] as const));
      expect(seen.filter(([, status]) => status.status === 'running').length).toBeLessThanOrEqual(SLOTS);
      for (const [taskId, status] of seen) {
        if (status.status === 'queued') expect(status.message).toMatch(/^Waiting in the queue/);
        if (status.status !== 'queued' && status.status !== 'running') finished.set(taskId, status);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const [index, entry] of waiting.entries()) {
      const status = finished.get(entry.taskId);
      expect(status).toMatchObject({ status: 'done', progress: 100 });
      const file = await downloadClip(t, status?.video_url as string, work, `${engine}-${index}.mp4`);
      const info = await probe(file);
      expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 854, height: 480 });
      expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThan(0.1);
      // Its own picture, away from the text: the channel of its colour is high (white: all are).
      const pixel = await pixelAt(file, 2, 10, 470);
      if (entry.colour >= 0) expect(pixel[entry.colour]).toBeGreaterThan(120);
      else expect(Math.min(...pixel)).toBeGreaterThan(200);
      if (entry.colour >= 0) expect(Math.min(...pixel.filter((_, channel) => channel !== entry.colour))).toBeLessThan(80);
    }
    for (const id of blockers) expect((await waitForClip(t, alice.token, id)).status).toBe('cancelled');

    // Each user sees their own clips only.
    const listed = async (token: string) =>
      (await t.app.inject({ url: '/api/clips', headers: bearer(token) }))
        .json<ClipListResponse>()
        .clips.map((clip) => clip.taskId)
        .sort();
    expect(await listed(bob.token)).toEqual([waiting[2]?.taskId]);
    expect(await listed(carol.token)).toEqual([waiting[3]?.taskId]);
    expect(await listed(alice.token)).toEqual([...blockers, waiting[0]?.taskId, waiting[1]?.taskId].sort());

    // The tasks' own record of every render: two at once at most, and two at once at some point.
    const { rows } = await t.app.encore.platform.database.executor.executeSql(
      `SELECT state, started_at, finished_at FROM tasks WHERE kind = 'clips.render'`,
      [],
    );
    expect((rows as TaskRow[]).map((row) => row.state).sort()).toEqual(['cancelled', 'cancelled', 'done', 'done', 'done', 'done']);
    expect(mostAtOnce(rows as TaskRow[])).toBe(SLOTS);
  }, 180_000);
});
