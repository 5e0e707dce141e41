import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { LIMITS_URL, startLimitsEncore } from '../limits-encore.js';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/**
 * Fair shares (issue 29) in a real browser: each per-user limit, reached, is said where the
 * person acted (uploading, making a clip, transcribing, generating a playlist), in English and in
 * Hebrew with the server's figures. Against an Encore of its own with low limits (limits-encore.ts).
 */
test.describe('per-user limits', () => {
  test.use({ baseURL: LIMITS_URL });
  let encore: { stop(): Promise<void> } | undefined;
  test.beforeAll(async () => {
    encore = await startLimitsEncore();
  });
  test.afterAll(async () => {
    await encore?.stop();
  });

  const hebrew = (page: Page) => page.evaluate(() => localStorage.setItem('language', 'he'));
  const english = (page: Page) => page.evaluate(() => localStorage.setItem('language', 'en'));

  test('storage, transcriptions, AI playlists and renders: each refusal readable where it happened', async ({ page, context, request }) => {
    test.setTimeout(240_000);
    // The instance's first account is its admin (no storage quota): it adds the songs everyone shares.
    const admin = uniqueUser('root');
    await signUpViaApi(request, admin);
    const dir = await fixtureDir();
    const adminToken = await apiToken(request, admin);
    const songs: number[] = [];
    for (const n of [1, 2]) {
      songs.push(
        await uploadViaApi(request, adminToken, await makeSong(dir, { title: `Limit Song ${n}`, artist: 'Encore Band', seconds: 6, frequency: 300 + n * 40 })),
      );
    }
    const user = uniqueUser('fair');
    await signUpViaApi(request, user);
    await signInThroughUi(page, user);

    // Storage: a 6 s MP3 (about 100 KB) does not fit in 0.05 MB.
    const big = await makeSong(dir, { title: 'Too Big', artist: 'Encore Band', seconds: 6, frequency: 500 });
    await page.goto('/upload');
    await page.getByLabel('Choose music files').setInputFiles(big);
    await page.getByRole('button', { name: 'Upload Music File' }).click();
    await expect(
      page
        .getByText(
          /^There is no room for this song: your songs use 0 B of your 51\.2 KB, and this file is \d+\.\d KB\. Delete some of your songs to make room\.$/,
        )
        .first(),
    ).toBeVisible();
    await snap(page, 'limits-storage-en');
    await hebrew(page);
    await page.reload();
    await page.getByLabel('בחירת קובצי מוזיקה').setInputFiles(big);
    await page.getByRole('button', { name: 'העלאת קובץ מוזיקה' }).click();
    await expect(
      page.getByText(/^אין מקום לשיר הזה: השירים שלך תופסים \u20660 B\u2069 מתוך \u206651\.2 KB\u2069, והקובץ הזה בגודל \u2066\d+\.\d KB\u2069\./).first(),
    ).toBeVisible();
    await snap(page, 'limits-storage-he');

    // Transcriptions: one waiting already (nothing works the jobs here), so the next is refused.
    const token = await apiToken(request, user);
    const first = await request.post(`/api/files/${songs[0]}/lyrics/transcription`, { headers: { authorization: `Bearer ${token}` }, data: {} });
    expect(first.status()).toBe(202);
    await page.goto(`/music/${songs[1]}`);
    const panel = page.getByTestId('lyrics-panel');
    await panel.getByRole('button', { name: 'תמלול מילים בעזרת AI' }).click();
    await expect(page.getByText('תמלול המילים נכשל').first()).toBeVisible();
    await expect(
      page.getByText('כבר יש לך את המספר המרבי של תמלולים בביצוע או בהמתנה בו־זמנית (1). נא להמתין שאחד מהם יסתיים ולנסות שוב.').first(),
    ).toBeVisible();
    await snap(page, 'limits-transcription-he', { fullPage: false });

    // AI playlists: one a minute of the clock. Should the minute turn between two asks, the next ask is the refused one.
    await english(page);
    await page.goto('/ai-playlist');
    await page.getByLabel('Your prompt').fill('calm piano for reading');
    const generate = page.getByRole('button', { name: 'Generate Playlist' });
    await generate.click();
    const refusal = page.getByText(/^You have made the most AI playlists allowed in a minute \(1\)\. Please try again in \d+ s\.$/).first();
    await expect(async () => {
      await expect(generate).toBeEnabled({ timeout: 30_000 });
      await generate.click();
      await expect(refusal).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 90_000 });
    await refusal.scrollIntoViewIfNeeded();
    await snap(page, 'limits-ai-en', { fullPage: false });

    // Renders: one waits in a first tab; the second tab's is refused before its picture is sent.
    const picture = path.join(dir, 'limits-red.png');
    await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=640x360:d=1', '-frames:v', '1', picture]);
    const startClip = async (tab: Page) => {
      await tab.goto('/song2clip');
      await tab.getByRole('searchbox', { name: 'Search songs' }).fill('Limit Song 1');
      await tab.getByRole('button', { name: /Limit Song 1/ }).click();
      await tab.getByLabel('Choose pictures or a video').setInputFiles([picture]);
      await expect(tab.getByTestId('clip-media-item')).toHaveCount(1);
      await tab.getByRole('button', { name: 'Create Clip' }).click();
    };
    await startClip(page);
    await expect(page.getByRole('button', { name: 'Creating Clip...' })).toBeDisabled();
    // A second tab (signed in again: the session is kept for the tab unless "Remember me").
    const second = await context.newPage();
    await signInThroughUi(second, user);
    await startClip(second);
    await expect(
      second.getByText('Error: You already have the most clip renders waiting or running at once (1). Please wait for one to finish, then try again.'),
    ).toBeVisible();
    await snap(second, 'limits-render-en', { fullPage: false });
    await expect(second.getByRole('button', { name: 'Create Clip' })).toBeEnabled();
  });
});
