import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import { buildClipFixtures, buildLongSong, clipStatus, createClip, settingsOf, taskIdOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';

/**
 * Fair shares (issue 29) on the real render queue: one user with ten renders queued does not
 * delay another user's first; the queue takes users in turn (platform/jobs/fair-queue.ts).
 */
let fixtures: ClipFixtures;
let longSong: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  longSong = await buildLongSong(fixtures.dir, 60);
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
});

describe.each(engines)('the render queue on %s takes users in turn', (engine) => {
  let t: LibraryApp;
  let alice: string;
  let bob: string;
  let aliceSong: string;
  let aliceLongSong: string;
  let bobSong: string;

  beforeAll(async () => {
    t = await startLibraryApp({ engine, storage: 'local' }, { CLIP_RENDERS_PER_PROCESS: '1', USER_MAX_RENDERS: '10' });
    alice = await account(t, 'alice');
    bob = await account(t, 'bob');
    aliceSong = `/music/${(await upload(t, alice, fixtures.song)).song.id}`;
    aliceLongSong = `/music/${(await upload(t, alice, longSong)).song.id}`;
    bobSong = `/music/${(await upload(t, bob, fixtures.song)).song.id}`;
  }, 60_000);
  afterAll(async () => t?.close());

  const states = async (token: string, ids: string[]) => Promise.all(ids.map(async (id) => (await clipStatus(t, token, id)).status));

  it("starts Bob's single render before the nine Alice queued ahead of it", async () => {
    // Alice's first render is long (a minute of 4K): it holds the only slot until the test stops it.
    const first = await createClip(t, alice, { settings: settingsOf({ videoQuality: 'ultra', videoFormat: 'webm', words: [] }), songUrl: aliceLongSong }, [
      fixtures.red,
    ]);
    expect(first.statusCode).toBe(202);
    const blocker = taskIdOf(first);
    await expect.poll(async () => (await clipStatus(t, alice, blocker)).status, { timeout: 60_000, interval: 100 }).toBe('running');

    const aliceQueued: string[] = [];
    for (let n = 0; n < 9; n++) {
      const response = await createClip(t, alice, { settings: settingsOf({}), songUrl: aliceSong }, [fixtures.blue]);
      expect(response.statusCode).toBe(202);
      aliceQueued.push(taskIdOf(response));
    }
    const bobResponse = await createClip(t, bob, { settings: settingsOf({}), songUrl: bobSong }, [fixtures.green]);
    expect(bobResponse.statusCode).toBe(202);
    const bobTask = taskIdOf(bobResponse);

    // Bob's render waits only for the one running; Alice's last for all the others.
    expect(await clipStatus(t, bob, bobTask)).toMatchObject({ status: 'queued', message: 'Waiting in the queue (1 render ahead)' });
    expect(await clipStatus(t, alice, aliceQueued[0] as string)).toMatchObject({ status: 'queued', message: 'Waiting in the queue (2 renders ahead)' });
    expect(await clipStatus(t, alice, aliceQueued[8] as string)).toMatchObject({ status: 'queued', message: 'Waiting in the queue (10 renders ahead)' });

    // The slot frees: the next render to start is Bob's, while Alice's nine still wait.
    expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${blocker}/cancel`, headers: bearer(alice) })).statusCode).toBe(200);
    await expect.poll(async () => (await clipStatus(t, bob, bobTask)).status, { timeout: 60_000, interval: 50 }).not.toBe('queued');
    expect(new Set(await states(alice, aliceQueued))).toEqual(new Set(['queued']));
    expect((await waitForClip(t, bob, bobTask)).status).toBe('done');

    // Then Alice's, one after another, in the order she asked.
    const { rows } = await t.app.encore.platform.database.executor.executeSql(
      `SELECT id::text, started_at FROM tasks WHERE kind = 'clips.render' AND started_at IS NOT NULL ORDER BY started_at`,
      [],
    );
    expect((rows as { id: string }[]).map((row) => row.id).slice(0, 2)).toEqual([blocker, bobTask]);
    for (const id of aliceQueued) {
      const clip = (await clipStatus(t, alice, id)).clip_id;
      expect((await t.app.inject({ method: 'DELETE', url: `/api/clips/${clip}`, headers: bearer(alice) })).statusCode).toBe(204);
    }
  }, 180_000);
});
