import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import { buildClipFixtures, buildLongSong, clipStatus, createClip, settingsOf, taskIdOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';
import { clipsModule } from '../../src/features/clips/clips.module.js';
import { clips } from '../../src/features/clips/clips.schema.js';

const HOUR = 3600_000;

/**
 * Issue 25 (fair use): the pictures or video uploaded for a render are deleted once the render
 * can no longer use them: at once when a running render is cancelled or fails for good, and
 * by the hourly clean-up for one cancelled while it waited in the queue.
 */
let fixtures: ClipFixtures;
let longSong: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  longSong = await buildLongSong(fixtures.dir, 60);
}, 120_000);
afterAll(async () => rm(fixtures.dir, { recursive: true, force: true }));

describe.each(engines)('the media of ended renders on %s', (engine) => {
  let t: LibraryApp;
  beforeAll(async () => {
    // One render at a time: the long one holds the slot while the others wait. Alice has four
    // renders waiting or running at once, above the default per-user limit of two.
    t = await startLibraryApp({ engine, storage: 'local' }, { CLIP_RENDERS_PER_PROCESS: '1', USER_MAX_RENDERS: '4' });
  }, 300_000);
  afterAll(async () => t?.close());

  const mediaOf = async (taskId: string) =>
    (await t.app.encore.platform.database.db.select().from(clips)).find((clip) => clip.taskId === taskId)?.mediaKeys ?? [];
  const stored = async (keys: string[]) =>
    (await Promise.all(keys.map(async (key) => ((await t.app.encore.platform.storage.stat(key)) ? key : undefined)))).filter(Boolean);
  const cancel = async (token: string, taskId: string) =>
    expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${taskId}/cancel`, headers: bearer(token) })).statusCode).toBe(200);

  it('deletes them when a render is cancelled (running or queued) or fails for good, and keeps those of live renders', async () => {
    const alice = await account(t, 'alice');
    const longUrl = `/music/${(await upload(t, alice, longSong)).song.id}`;
    const shortUrl = `/music/${(await upload(t, alice, fixtures.song)).song.id}`;
    const doomed = (await upload(t, alice, fixtures.song, { fileName: 'doomed.mp3' })).song;

    const running = taskIdOf(
      await createClip(t, alice, { settings: settingsOf({ videoQuality: 'ultra', videoFormat: 'webm', words: [] }), songUrl: longUrl }, [fixtures.red]),
    );
    await expect.poll(async () => (await clipStatus(t, alice, running)).status, { timeout: 120_000, interval: 100 }).toBe('running');
    const queued = taskIdOf(await createClip(t, alice, { settings: settingsOf({}), songUrl: shortUrl }, [fixtures.blue, fixtures.green]));
    const songGone = taskIdOf(await createClip(t, alice, { settings: settingsOf({}), songUrl: `/music/${doomed.id}` }, [fixtures.white]));
    const kept = taskIdOf(await createClip(t, alice, { settings: settingsOf({}), songUrl: shortUrl }, [fixtures.red]));
    const media = { running: await mediaOf(running), queued: await mediaOf(queued), songGone: await mediaOf(songGone), kept: await mediaOf(kept) };
    expect(await stored([...media.running, ...media.queued, ...media.songGone, ...media.kept])).toHaveLength(5);

    await cancel(alice, queued);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${doomed.id}`, headers: bearer(alice) })).statusCode).toBeLessThan(300);
    await cancel(alice, running);

    // The running render stops and its media go with it.
    expect((await waitForClip(t, alice, running)).status).toBe('cancelled');
    await expect.poll(() => stored(media.running), { timeout: 30_000, interval: 100 }).toEqual([]);
    // The render whose song was deleted fails for good: its media go too.
    expect((await waitForClip(t, alice, songGone)).status).toBe('error');
    expect(await stored(media.songGone)).toEqual([]);
    expect((await waitForClip(t, alice, kept)).status).toBe('done');

    // The one cancelled in the queue never ran: the hourly clean-up removes its media, and no other clip's.
    expect((await clipStatus(t, alice, queued)).status).toBe('cancelled');
    expect(await stored(media.queued)).toEqual(media.queued);
    await t.app.encore.modules.internals(clipsModule).clips.sweepOrphanedFiles(new Date(Date.now() + 2 * HOUR));
    expect(await stored(media.queued)).toEqual([]);
    expect(await stored(media.kept)).toEqual(media.kept);
  }, 300_000);
});
