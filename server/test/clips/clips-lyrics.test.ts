import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { engines } from '../support/test-app.js';
import { buildClipFixtures, createClip, downloadClip, regionMean, settingsOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';

/**
 * A song with lyrics but no word timings: the clip draws its lines, untimed ones where SPEC 9's
 * rule puts them and an LRC's at their own times, with the default settings (no words sent)
 * and with auto subtitles on. Each render is compared with the same clip of the song without
 * lyrics, in the middle of the frame where the text sits.
 */
let fixtures: ClipFixtures;
let work: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-lyrics-'));
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** The 480p frame's middle band, where a centred line and its box are drawn. */
const TEXT_BAND = { x: 227, y: 215, width: 400, height: 50 };

describe.each(engines)('Song2Clip draws a song’s lyrics without word timings on %s', (engine) => {
  let t: LibraryApp;
  let alice: string;
  let songId: number;

  beforeAll(async () => {
    t = await startLibraryApp({ engine, storage: 'local' });
    alice = await account(t, 'alice');
    songId = (await upload(t, alice, fixtures.song)).song.id;
  }, 180_000);
  afterAll(async () => t.close());

  async function render(name: string, overrides: Parameters<typeof settingsOf>[0]): Promise<{ file: string; message: string | null }> {
    const created = await createClip(t, alice, { settings: settingsOf({ words: [], ...overrides }), songUrl: `/music/${songId}` }, [fixtures.blue]);
    expect(created.statusCode).toBe(202);
    const status = await waitForClip(t, alice, created.json<{ task_id: string }>().task_id);
    expect(status.status, status.message ?? '').toBe('done');
    return { file: await downloadClip(t, status.video_url as string, work, `${engine}-${name}.mp4`), message: status.message };
  }
  async function putLyrics(transcript: string) {
    const response = await t.app.inject({ method: 'PUT', url: `/api/files/${songId}/lyrics`, headers: bearer(alice), payload: { transcript } });
    expect(response.statusCode, response.body).toBe(200);
  }
  const band = (file: string, seconds: number) => regionMean(file, seconds, TEXT_BAND.x, TEXT_BAND.y, TEXT_BAND.width, TEXT_BAND.height);
  const difference = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + Math.abs(value - (b[i] ?? 0)), 0);

  it('untimed lyrics spread by the line timing rule, with the default settings and with auto subtitles; LRC lines at their times', async () => {
    const bare = await render('no-lyrics', {});
    expect(bare.message).toMatch(/no words/);

    // Two untimed lines over the 4 s song: 0-2 s and 2-4 s.
    await putLyrics('Hello bright world\nSecond line here');
    const untimed = await render('untimed', {});
    expect(untimed.message).toBeNull();
    for (const seconds of [1, 3]) expect(difference(await band(untimed.file, seconds), await band(bare.file, seconds)), `${seconds} s`).toBeGreaterThan(30);
    const auto = await render('untimed-auto', { autoSubtitles: true });
    expect(difference(await band(auto.file, 1), await band(bare.file, 1))).toBeGreaterThan(30);

    // One LRC line from 2.5 s: nothing before it (a screen opens 0.25 s ahead), the line after.
    await putLyrics('[00:02.50]A late line');
    const lrc = await render('lrc', { autoSubtitles: true });
    expect(difference(await band(lrc.file, 1), await band(bare.file, 1))).toBeLessThan(6);
    expect(difference(await band(lrc.file, 3.2), await band(bare.file, 3.2))).toBeGreaterThan(30);
  }, 300_000);
});
