import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipListResponse } from '@encore/common/clips.contract';
import { locateFfmpeg } from '../../src/platform/media/ffmpeg.locate.js';
import { account, bearer, fetchUrl, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import { buildClipFixtures, createClip, meanVolume, pixelAt, probe, regionMean, settingsOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';
import { clipsModule } from '../../src/features/clips/clips.module.js';
import { eq } from 'drizzle-orm';
import { songs } from '../../src/features/library/library.schema.js';

/**
 * Song2Clip end to end: create-clip → the render job → clip-status → the video, checked with
 * ffprobe and by its pixels; with Debian's ffmpeg (xfade) and the npm-shipped 4.1 (fallback graph).
 */
let fixtures: ClipFixtures;
let work: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-out-'));
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function download(t: LibraryApp, url: string, name: string): Promise<string> {
  const fetched = await fetchUrl(t, url);
  expect(fetched.status).toBe(200);
  const file = path.join(work, name);
  await writeFile(file, fetched.body);
  return file;
}

const clipObjects = async (t: LibraryApp) =>
  (await readdir(path.join(t.mediaDir, 'clips'), { recursive: true }).catch(() => [] as string[])).filter((name) => /\.(mp4|webm|gif)$/.test(name));

describe.each(engines)('Song2Clip on %s (system ffmpeg)', (engine) => {
  let t: LibraryApp;
  let alice: string;
  let bob: string;
  let songUrl: string;

  beforeAll(async () => {
    t = await startLibraryApp({ engine, storage: 'local' }, { CLIP_MAX_IMAGES: '4', CLIP_MAX_IMAGE_MB: '0.05' });
    alice = await account(t, 'alice');
    bob = await account(t, 'bob');
    const { song } = await upload(t, alice, fixtures.song);
    songUrl = `/music/${song.id}`;
    // Starting an app on a busy machine (PGlite's first start, migrations) can take a while.
  }, 180_000);
  afterAll(async () => t.close());

  it('renders an MP4 from pictures with karaoke words, faded audio, text where the position says', async () => {
    const created = await createClip(t, alice, { settings: settingsOf({ textPosition: 'top', borderRadius: 0, backgroundOpacity: 100 }), songUrl }, [
      fixtures.white,
      fixtures.white,
      fixtures.white,
    ]);
    expect(created.statusCode).toBe(202);
    const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
    expect(status).toMatchObject({ status: 'done', progress: 100, message: null });
    expect(status.video_url).toMatch(/^\/api\//);
    const file = await download(t, status.video_url as string, 'pictures.mp4');
    const info = await probe(file);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 854, height: 480, r_frame_rate: '30/1' });
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThan(0.1);
    // The box is at the top (black), the bottom stays the white picture.
    expect((await pixelAt(file, 1.5, 427, 34)).every((c) => c < 60)).toBe(true);
    expect((await pixelAt(file, 1.5, 427, 440)).every((c) => c > 200)).toBe(true);
    // "world" turns the highlight colour (#ffd54f: less blue) at 1.3 s.
    const before = await regionMean(file, 1.1, 430, 40, 90, 30);
    const after = await regionMean(file, 1.6, 430, 40, 90, 30);
    expect(before[2] - after[2]).toBeGreaterThan(10);
    // Faded in: the first 0.2 s are quieter than the middle.
    expect(await meanVolume(file, 0, 0.2)).toBeLessThan((await meanVolume(file, 1, 1)) - 3);
    // Range requests.
    const ranged = await fetchUrl(t, status.video_url as string, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.body.length).toBe(100);
  }, 120_000);

  it('renders a WebM (VP9 + Opus) 9:16 from one video, looped to the song', async () => {
    const created = await createClip(t, alice, { settings: settingsOf({ videoFormat: 'webm', aspectRatio: '9:16', framerate: 24 }), songUrl }, [
      fixtures.video,
    ]);
    expect(created.statusCode).toBe(202);
    const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
    expect(status.status).toBe('done');
    const info = await probe(await download(t, status.video_url as string, 'video.webm'));
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'vp9', width: 480, height: 854, r_frame_rate: '24/1' });
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('opus');
    expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThan(0.1);
  }, 120_000);

  it('renders a GIF (no audio) of a part of the song, with sharp transitions and beats', async () => {
    const created = await createClip(
      t,
      alice,
      {
        settings: settingsOf({ videoFormat: 'gif', aspectRatio: '1:1', framerate: 15, transitions: 'sharp', startTime: 1, endTime: 3, beatDetection: true }),
        songUrl,
      },
      [fixtures.red, fixtures.blue],
    );
    const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
    expect(status.status).toBe('done');
    const info = await probe(await download(t, status.video_url as string, 'clip.gif'));
    expect(info.streams).toHaveLength(1);
    expect(info.streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'gif', width: 480, height: 480 });
    expect(Math.abs(Number(info.format.duration) - 2)).toBeLessThan(0.15);
  }, 120_000);

  it("hides a user's clips from others (404), lists and deletes them", async () => {
    const created = await createClip(t, alice, { settings: settingsOf({ words: [] }), songUrl }, [fixtures.green]);
    const taskId = created.json<{ task_id: string }>().task_id;
    expect((await t.app.inject({ url: `/api/clips/clip-status/${taskId}`, headers: bearer(bob) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/clips/clip-status/not-a-task', headers: bearer(alice) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/clips/clip-status/${taskId}` })).statusCode).toBe(401);
    expect((await waitForClip(t, alice, taskId)).message).toMatch(/no words/);
    const font = await t.app.inject({ url: '/api/clips/fonts/LiberationSans-Regular.ttf' });
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-type']).toBe('font/ttf');
    expect((await t.app.inject({ url: '/api/clips/fonts/..%2Fsecrets' })).statusCode).toBe(400);
    const list = (await t.app.inject({ url: '/api/clips', headers: bearer(alice) })).json<ClipListResponse>();
    const mine = list.clips.find((clip) => clip.taskId === taskId);
    expect(mine).toMatchObject({ status: 'done', format: 'mp4', width: 854, height: 480 });
    expect((await t.app.inject({ url: '/api/clips', headers: bearer(bob) })).json<ClipListResponse>().clips).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/clips/${mine?.id}`, headers: bearer(bob) })).statusCode).toBe(404);
    const before = await clipObjects(t);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/clips/${mine?.id}`, headers: bearer(alice) })).statusCode).toBe(204);
    expect((await clipObjects(t)).length).toBe(before.length - 1);
  }, 120_000);

  it('the hourly clean-up removes clip files no clip uses once past the grace period, and none a clip uses', async () => {
    const created = await createClip(t, alice, { settings: settingsOf({ words: [] }), songUrl }, [fixtures.green]);
    const taskId = created.json<{ task_id: string }>().task_id;
    expect((await waitForClip(t, alice, taskId)).status).toBe('done');
    const storage = t.app.encore.platform.storage;
    const clipsService = t.app.encore.modules.internals(clipsModule).clips;
    const clip = (await t.app.inject({ url: '/api/clips', headers: bearer(alice) })).json<ClipListResponse>().clips.find((entry) => entry.taskId === taskId);
    expect(clip?.status).toBe('done');
    // A crash between storing the media and recording the clip, and a clip deleted while it rendered.
    const strayMedia = 'clip-media/1/0f8fad5b-d9cb-469f-a165-70867728950e/0.png';
    const strayVideo = 'clips/1/0f8fad5b-d9cb-469f-a165-70867728950e/clip.mp4';
    await storage.put(strayMedia, Buffer.from('png'));
    await storage.put(strayVideo, Buffer.from('mp4'));
    const used: string[] = [];
    for await (const object of storage.list('clip-media/')) if (object.key !== strayMedia) used.push(object.key);
    for await (const object of storage.list('clips/')) if (object.key !== strayVideo) used.push(object.key);
    expect(used.length).toBeGreaterThanOrEqual(2);

    expect(await clipsService.sweepOrphanedFiles()).toEqual([]);
    const later = new Date(Date.now() + 2 * 3600_000);
    expect((await clipsService.sweepOrphanedFiles(later)).sort()).toEqual([strayMedia, strayVideo].sort());
    expect(await storage.stat(strayMedia)).toBeNull();
    expect(await storage.stat(strayVideo)).toBeNull();
    for (const key of used) expect(await storage.stat(key), key).not.toBeNull();
    const video = await t.app.inject({ url: clip!.videoUrl!, headers: { range: 'bytes=0-99' } });
    expect(video.statusCode).toBe(206);
  }, 120_000);

  it('cancel stops ffmpeg and stores nothing; a failed render says why and stores nothing', async () => {
    const before = await clipObjects(t);
    const created = await createClip(t, alice, { settings: settingsOf({ videoQuality: 'ultra', videoFormat: 'webm' }), songUrl }, [
      fixtures.red,
      fixtures.blue,
    ]);
    const taskId = created.json<{ task_id: string }>().task_id;
    for (let i = 0; i < 200; i++) {
      const state = (await t.app.inject({ url: `/api/clips/clip-status/${taskId}`, headers: bearer(alice) })).json<{ status: string; progress: number }>();
      if (state.status === 'running' && state.progress >= 6) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${taskId}/cancel`, headers: bearer(alice) })).statusCode).toBe(200);
    const status = await waitForClip(t, alice, taskId);
    expect(status).toMatchObject({ status: 'cancelled', video_url: null });
    // A song whose stored file vanished: the render fails, with nothing stored.
    const songId = Number(songUrl.split('/').pop());
    const row = (await t.app.encore.platform.database.db.select().from(songs).where(eq(songs.id, songId)).limit(1))[0];
    const copy = `${row?.storageKey}.keep`;
    await t.app.encore.platform.storage.move(row?.storageKey as string, copy);
    try {
      const failing = await createClip(t, alice, { settings: settingsOf({}), songUrl }, [fixtures.red]);
      const failed = await waitForClip(t, alice, failing.json<{ task_id: string }>().task_id);
      expect(failed.status).toBe('error');
      expect(failed.message).toBeTruthy();
    } finally {
      await t.app.encore.platform.storage.move(copy, row?.storageKey as string);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await clipObjects(t)).toEqual(before);
  }, 120_000);
});

describe('Song2Clip with the npm-shipped ffmpeg 4.1 (no xfade: the fallback graph)', () => {
  let t: LibraryApp;
  let alice: string;
  let songUrl: string;

  beforeAll(async () => {
    const bundled = await locateFfmpeg({ dataDir: work, choices: ['bundled'] });
    t = await startLibraryApp({ engine: 'pglite', storage: 'local' }, { FFMPEG_PATH: bundled.path });
    expect((await t.app.encore.platform.ffmpeg.info()).lacks).toContain('xfade');
    alice = await account(t, 'alice');
    const { song } = await upload(t, alice, fixtures.song);
    songUrl = `/api/files/${song.id}/play`;
  }, 60_000);
  afterAll(async () => t.close());

  it.each(['smooth', 'elastic', 'none'] as const)(
    'renders pictures with %s transitions',
    async (transitions) => {
      const created = await createClip(t, alice, { settings: settingsOf({ transitions, colorMatch: true, autoSync: true }), songUrl }, [
        fixtures.red,
        fixtures.green,
        fixtures.blue,
      ]);
      expect(created.statusCode).toBe(202);
      const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
      expect(status.status).toBe('done');
      const file = await download(t, status.video_url as string, `fallback-${transitions}.mp4`);
      const info = await probe(file);
      expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 854, height: 480 });
      expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThan(0.1);
      // Mid-picture frames show each picture: red, then green, then blue (bottom-left corner, away from the text).
      const [r1] = await pixelAt(file, 0.3, 10, 470);
      const [, g2] = await pixelAt(file, 2.2, 10, 470);
      const [, , b3] = await pixelAt(file, 3.7, 10, 470);
      expect([r1, g2, b3].every((c) => c > 120)).toBe(true);
    },
    120_000,
  );

  it('renders a GIF in its two runs (palette, then frames)', async () => {
    const created = await createClip(
      t,
      alice,
      { settings: settingsOf({ videoFormat: 'gif', framerate: 15, transitions: 'smooth', startTime: 0, endTime: 2 }), songUrl },
      [fixtures.red, fixtures.blue],
    );
    const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
    expect(status.status).toBe('done');
    const file = await download(t, status.video_url as string, 'fallback.gif');
    const info = await probe(file);
    expect(info.streams).toHaveLength(1);
    expect(info.streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'gif', width: 854, height: 480 });
    const [r] = await pixelAt(file, 0.3, 10, 470);
    expect(r).toBeGreaterThan(120);
  }, 120_000);
});
