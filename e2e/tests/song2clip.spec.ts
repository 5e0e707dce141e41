import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/** A solid-colour PNG picture made with ffmpeg. */
async function makePicture(dir: string, colour: string, size = '640x360'): Promise<string> {
  const file = path.join(dir, `${colour}.png`);
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}:d=1`, '-frames:v', '1', file]);
  return file;
}

async function setUp(request: APIRequestContext, prefix: string) {
  const user = uniqueUser(prefix);
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  const song = await makeSong(dir, { title: `Clip Song ${prefix}`, artist: 'Encore Band', seconds: 6, frequency: 330 });
  await uploadViaApi(request, await apiToken(request, user), song);
  const pictures = await Promise.all(['red', 'blue', 'green'].map((colour) => makePicture(dir, colour)));
  return { user, pictures, title: `Clip Song ${prefix}` };
}

async function chooseSong(page: Page, title: string) {
  await page.getByRole('searchbox', { name: 'Search songs' }).fill('Clip Song');
  await page.getByRole('button', { name: new RegExp(title) }).click();
  await expect(page.getByTestId('clip-chosen-song')).toContainText(title);
}

function mediaNames(page: Page) {
  return page
    .getByTestId('clip-media-item')
    .locator('img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
}

test.describe('Song2Clip', () => {
  test('pick a song, add pictures and reorder them, style the text, create a clip, watch progress, play it', async ({ page, request }) => {
    // Rendering runs ffmpeg on a shared machine: allow it minutes.
    test.setTimeout(420_000);
    const { user, pictures, title } = await setUp(request, 'clip');
    await signInThroughUi(page, user);
    await page.goto('/song2clip');
    await expect(page.getByRole('heading', { level: 1, name: 'Song2Clip Editor' })).toBeVisible();

    await chooseSong(page, title);
    await page.getByLabel('Choose pictures or a video').setInputFiles(pictures);
    await expect(page.getByTestId('clip-media-item')).toHaveCount(3);
    expect(await mediaNames(page)).toEqual(['red.png', 'blue.png', 'green.png']);

    // Drag the third picture onto the first.
    const tiles = page.getByTestId('clip-media-item');
    const from = (await tiles.nth(2).boundingBox())!;
    const to = (await tiles.nth(0).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => mediaNames(page)).toEqual(['green.png', 'red.png', 'blue.png']);
    await snap(page, 'song2clip-media');

    await page.getByRole('tab', { name: 'Text' }).click();
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.getByRole('slider', { name: 'Font size' }).fill('40');
    await page.getByText('Text Position').click();
    await page.getByRole('button', { name: 'Bottom' }).click();
    await snap(page, 'song2clip-text');

    await page.getByRole('tab', { name: 'Effects' }).click();
    await page.getByText('Video Settings').click();
    await page.getByLabel('Quality').selectOption('low');
    await page.getByLabel('End (s)').fill('3');
    await page.getByText('Advanced settings', { exact: true }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('Advanced settings will be available soon');
    await snap(page, 'song2clip-effects');

    await page.getByRole('button', { name: 'Create Clip' }).click();
    await expect(page.getByRole('button', { name: 'Creating Clip...' })).toBeDisabled();
    await expect(page.getByTestId('clip-progress')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Created Clip Preview' })).toBeVisible({ timeout: 300_000 });
    await expect(page.getByText('Clip created successfully!')).toBeVisible();

    const video = page.getByTestId('created-clip-video');
    await expect(video).toHaveAttribute('controls', '');
    expect(await video.evaluate((element: HTMLVideoElement) => element.autoplay)).toBe(false);
    // It plays: the browser decodes it and time moves (the machine may be busy: give it time).
    const error = await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      return element.play().then(
        () => null,
        (reason: unknown) => String(reason),
      );
    });
    expect(error).toBeNull();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.3);
    const played = await video.evaluate((element: HTMLVideoElement) => ({
      duration: element.duration,
      width: element.videoWidth,
      height: element.videoHeight,
    }));
    expect(played.duration).toBeGreaterThan(2.5);
    expect(played.duration).toBeLessThan(3.5);
    expect(played).toMatchObject({ width: 854, height: 480 });
    await snap(page, 'song2clip-created');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.mp4$/);

    // My clips: the clip is listed, plays there, and goes once deleted.
    await page.getByRole('link', { name: 'My clips' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My Clips' })).toBeVisible();
    const card = page.getByTestId('my-clip').first();
    await expect(card.getByText(/^MP4 · 480p · 16:9/)).toBeVisible();
    // The card shows the clip's picture, not black (issue 37): the mean luma of its frame, read from a canvas.
    const thumbnail = card.getByTestId('my-clip-thumbnail');
    await expect
      .poll(() => thumbnail.evaluate((video: HTMLVideoElement) => (video.seeking ? 0 : video.readyState)), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    const luma = await thumbnail.evaluate((video: HTMLVideoElement) => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 36 });
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(video, 0, 0, 64, 36);
      const { data } = context.getImageData(0, 0, 64, 36);
      let sum = 0;
      for (let i = 0; i < data.length; i += 4) sum += 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
      return sum / (data.length / 4);
    });
    expect(luma).toBeGreaterThan(24);
    await card.getByRole('button', { name: /^Play the clip of / }).click();
    const listed = card.locator('video');
    await expect.poll(() => listed.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await listed.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBe(854);
    await snap(page, 'my-clips');
    const count = await page.getByTestId('my-clip').count();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Clip deleted')).toBeVisible();
    await expect(page.getByTestId('my-clip')).toHaveCount(count - 1);
  });

  test('every tab on a 390 px phone in Hebrew, right to left', async ({ page, request }) => {
    test.setTimeout(180_000);
    const { user, pictures, title } = await setUp(request, 'cliphe');
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughUi(page, user);
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.goto('/song2clip');
    await expect(page.getByRole('heading', { level: 1, name: 'עורך Song2Clip' })).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.getByRole('searchbox', { name: 'חיפוש שירים' }).fill('Clip Song');
    await page.getByRole('button', { name: new RegExp(title) }).click();
    await page.getByLabel('בחירת תמונות או וידאו').setInputFiles(pictures.slice(0, 2));
    await expect(page.getByTestId('clip-media-item')).toHaveCount(2);
    await snap(page, 'song2clip-phone-he-media');
    await page.getByRole('tab', { name: 'טקסט' }).click();
    await page.getByText('רקע הטקסט').click();
    await snap(page, 'song2clip-phone-he-text');
    await page.getByRole('tab', { name: 'אפקטים' }).click();
    await page.getByText('הגדרות וידאו').click();
    await page.getByRole('switch', { name: 'אפקטים מתקדמים' }).click();
    await snap(page, 'song2clip-phone-he-effects');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
