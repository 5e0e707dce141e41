import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeSong } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * Smart playlists in a real browser (issue 41): a smart playlist built from two conditions in
 * the rule editor (its live count follows), played through the player bar; then a song that
 * matches arrives in the music folder (E2E_MUSIC_DIR, watched) and joins the playlist by itself.
 * The files are taken out again at the end.
 */

const musicDir = process.env['E2E_MUSIC_DIR'] ?? '';
const run = `sp${Date.now().toString(36).slice(-5)}`;
const ourTree = path.join(musicDir, `Encore e2e ${run}`);
const artist = `Smart Band ${run}`;
const first = { title: `Smart Tune One ${run}`, artist };
const second = { title: `Smart Tune Two ${run}`, artist };
const other = { title: `Other Song ${run}`, artist };

/** Makes the song in a staging folder beside the music folder, then moves it in at once (the watcher sees it whole). */
async function putInTheFolder(song: { title: string; artist: string }, frequency: number): Promise<void> {
  const staging = await mkdtemp(path.join(path.dirname(musicDir), 'encore-e2e-staging-'));
  try {
    const made = await makeSong(staging, { ...song, seconds: 6, frequency });
    await mkdir(ourTree, { recursive: true });
    await rename(made, path.join(ourTree, path.basename(made)));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function conditions(page: Page) {
  return page.getByTestId('smart-condition');
}

test.describe('smart playlists in a real browser', () => {
  test.beforeAll(() => {
    expect(musicDir, 'E2E_MUSIC_DIR is set by playwright.config.ts').toBeTruthy();
  });
  test.afterAll(async () => {
    await rm(ourTree, { recursive: true, force: true });
  });

  test('builds a smart playlist from two conditions, plays it, and a matching song from the music folder joins it', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('smart');
    await signUpViaApi(request, user);
    await putInTheFolder(first, 440);
    await putInTheFolder(other, 550);
    await signInThroughUi(page, user);

    // My Playlists lists the smart playlists (the presets) and offers a new one.
    await page.goto('/playlists');
    await expect(page.getByRole('heading', { name: 'Smart Playlists' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Never played/ })).toBeVisible();
    await page.getByRole('link', { name: 'New Smart Playlist' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New Smart Playlist' })).toBeVisible();

    await page.getByLabel('Name').fill(`Tunes ${run}`);
    // First condition: Artist is the band.
    await conditions(page).nth(0).getByLabel('Field').selectOption('artist');
    await conditions(page).nth(0).getByLabel('Operator').selectOption('is');
    await conditions(page).nth(0).getByLabel('Value').fill(artist);
    // Second: Title contains "Tune" (the other song of the band is left out).
    await page.getByRole('button', { name: 'Add condition' }).click();
    await conditions(page).nth(1).getByLabel('Field').selectOption('title');
    await conditions(page).nth(1).getByLabel('Operator').selectOption('contains');
    await conditions(page).nth(1).getByLabel('Value').fill('Tune');
    // The live count waits for the watcher to have added the first song.
    await expect(async () => {
      await conditions(page).nth(1).getByLabel('Value').fill('Tune ');
      await conditions(page).nth(1).getByLabel('Value').fill('Tune');
      await expect(page.getByTestId('smart-count')).toHaveText('1 song matches', { timeout: 3_000 });
    }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, 'smart-playlist-editor-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Save' }).click();

    // Its page: one song, played through the player bar.
    await expect(page.getByRole('heading', { level: 1, name: `Tunes ${run}` })).toBeVisible();
    await expect(page.getByTestId('smart-song-count')).toHaveText('1 song');
    await page.getByRole('button', { name: 'Play All' }).click();
    await expect(page.getByRole('region', { name: 'Player' }).getByRole('link', { name: `${artist} - ${first.title}` })).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? 0), { timeout: 10_000 })
      .toBeGreaterThan(0);

    // A matching song arrives in the music folder: it joins without the user doing anything but looking again.
    await putInTheFolder(second, 660);
    await expect(async () => {
      await page.getByRole('link', { name: 'Back to Playlists' }).first().click();
      await page.getByRole('link', { name: new RegExp(`Tunes ${run}`) }).click();
      await expect(page.getByTestId('smart-song-count')).toHaveText('2 songs', { timeout: 5_000 });
    }).toPass({ timeout: 45_000, intervals: [1_000, 2_000] });
    await expect(page.getByRole('listitem').filter({ hasText: second.title })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: other.title })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, 'smart-playlist-phone');
  });
});
