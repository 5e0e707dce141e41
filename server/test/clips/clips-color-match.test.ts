import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipSettings } from '@encore/common/clips.contract';
import { account, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import {
  buildClipFixtures,
  buildShadeVideos,
  createClip,
  downloadClip,
  regionMean,
  settingsOf,
  taskIdOf,
  waitForClip,
  type ClipFixtures,
} from './clips-test-kit.js';

/**
 * colorMatch over a background video: frames sampled over the clip pick white text on a dark
 * video, near-black text on a bright one, and change it when the video does. The style's own
 * colour is green, so text that was not matched shows as green. Words are checked before they
 * are sung (after, they take the highlight colour).
 */
let fixtures: ClipFixtures;
let videos: Awaited<ReturnType<typeof buildShadeVideos>>;
let work: string;
let t: LibraryApp;
let alice: string;
let songUrl: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  videos = await buildShadeVideos(fixtures.dir);
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-color-'));
  t = await startLibraryApp({ engine: 'pglite', storage: 'local' });
  alice = await account(t, 'alice');
  songUrl = `/music/${(await upload(t, alice, fixtures.song)).song.id}`;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const style: Partial<ClipSettings> = {
  colorMatch: true,
  textColor: '#00ff00',
  showBackground: false,
  textShadow: false,
  animation: 'none',
  textPosition: 'center',
};

async function render(video: string, overrides: Partial<ClipSettings>, name: string): Promise<string> {
  const created = await createClip(t, alice, { settings: settingsOf({ ...style, ...overrides }), songUrl }, [video]);
  expect(created.statusCode).toBe(202);
  const status = await waitForClip(t, alice, taskIdOf(created));
  expect(status.status, status.message ?? '').toBe('done');
  return downloadClip(t, status.video_url as string, work, name);
}

/** The mean colour where the second word of a centred two-word line is drawn at 480p. */
const secondWord = (file: string, seconds: number) => regionMean(file, seconds, 440, 226, 80, 28);

describe('colorMatch on a background video', () => {
  it('draws white text on a dark video and near-black text on a bright one', async () => {
    // "world" (1.3 s) is not yet sung at 1.0 s: it shows the text colour.
    const [dark, bright] = await Promise.all([render(videos.dark, {}, 'dark.mp4'), render(videos.bright, {}, 'bright.mp4')]);
    const onDark = await secondWord(dark, 1);
    const onBright = await secondWord(bright, 1);
    // White strokes lift every channel alike over the near-black video (green would lift green only).
    expect(onDark[0]).toBeGreaterThan(45);
    expect(Math.abs(onDark[0] - onDark[1])).toBeLessThan(15);
    // Dark strokes pull every channel down on the bright video (green would leave green high).
    expect(onBright[1]).toBeLessThan(215);
    expect(Math.abs(onBright[0] - onBright[1])).toBeLessThan(15);
  }, 120_000);

  it('changes the colour with the video: white over its dark first half, near-black from the first words over its bright half', async () => {
    const words = [
      { text: 'Hello', start: 0.5, end: 1 },
      { text: 'world', start: 1.1, end: 1.4 },
      { text: 'again', start: 3, end: 3.3 },
      { text: 'friend', start: 3.4, end: 3.9 },
    ];
    const file = await render(videos.darkThenBright, { words }, 'dark-then-bright.mp4');
    const first = await secondWord(file, 1.05);
    const second = await secondWord(file, 3.2);
    expect(first[0]).toBeGreaterThan(45);
    expect(Math.abs(first[0] - first[1])).toBeLessThan(15);
    expect(second[1]).toBeLessThan(215);
    expect(Math.abs(second[0] - second[1])).toBeLessThan(15);
  }, 120_000);
});
