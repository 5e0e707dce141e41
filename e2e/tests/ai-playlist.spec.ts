import type { AnalysisProgress } from '@encore/common/analysis.contract';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi, type SongFixture } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * AI playlists in a real browser, on the real server (issue 12): songs are uploaded and analysed
 * in the background; a prompt made of a mood chip and text becomes a playlist with reasons
 * (progress, the AI badge), which opens and plays like any other; More like this on a song page.
 */

const run = Date.now().toString(36).slice(-5);
const fixtures: SongFixture[] = [
  { title: `Harbor ${run}`, artist: 'Tide', seconds: 8, frequency: 220 },
  { title: `Lantern ${run}`, artist: 'Ember', seconds: 8, frequency: 330 },
  { title: `Meadow ${run}`, artist: 'Field', seconds: 8, frequency: 440 },
  { title: `Quarry ${run}`, artist: 'Stone', seconds: 8, frequency: 660 },
];

function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Player' });
}

/** Waits until the background analysis has answered for every song of the library. */
async function waitForAnalysis(request: APIRequestContext, token: string): Promise<AnalysisProgress> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const response = await request.get('/api/ai/analysis-progress', { headers: { authorization: `Bearer ${token}` } });
    expect(response.ok()).toBe(true);
    const progress = (await response.json()) as AnalysisProgress;
    if (progress.total > 0 && progress.pending === 0) return progress;
    if (Date.now() > deadline) throw new Error(`analysis did not finish: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function signedInWithSongs(page: Page, request: APIRequestContext, prefix: string): Promise<{ token: string; ids: number[] }> {
  const user = uniqueUser(prefix);
  await signUpViaApi(request, user);
  const token = await apiToken(request, user);
  const dir = await fixtureDir();
  const ids: number[] = [];
  for (const fixture of fixtures) ids.push(await uploadViaApi(request, token, await makeSong(dir, fixture)));
  await signInThroughUi(page, user);
  return { token, ids };
}

test.describe('AI playlists', () => {
  test('the form: examples, mood chips that append, the blank-prompt message; desktop, phone and Hebrew', async ({ page, request }) => {
    const user = uniqueUser('aiform');
    await signUpViaApi(request, user);
    await signInThroughUi(page, user);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'AI Playlist' }).click();
    await expect(page).toHaveURL(/\/ai-playlist$/);
    await expect(page.getByRole('heading', { level: 1, name: 'AI Playlist Creator' })).toBeVisible();
    const prompt = page.getByLabel('Your prompt');
    const generate = page.getByRole('button', { name: 'Generate Playlist' });
    await expect(generate).toBeDisabled();
    await prompt.fill('  ');
    await generate.click();
    await expect(toast(page, 'Please enter a prompt to generate a playlist')).toBeVisible();
    await page.getByRole('button', { name: 'something calm to fall asleep to' }).click();
    await expect(prompt).toHaveValue('something calm to fall asleep to');
    await prompt.fill('music for coding');
    await page.getByRole('button', { name: 'Focused' }).click();
    await page.getByRole('button', { name: 'Dreamy' }).click();
    await page.getByRole('button', { name: 'Focused' }).click();
    await expect(page.getByRole('button', { name: 'Focused' })).toHaveAttribute('aria-pressed', 'false');
    await expect(prompt).toHaveValue('music for coding focused dreamy');
    await snap(page, 'ai-playlist-form');

    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'ai-playlist-form-phone');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.getByRole('button', { name: 'מרגיע' }).click();
    await expect(page.getByLabel('הבקשה שלכם')).toHaveValue('מרגיע');
    await snap(page, 'ai-playlist-form-he', { fullPage: false });
  });

  test('from a mood chip and text to a playlist with reasons; open it and play it', async ({ page, request }) => {
    test.setTimeout(180_000);
    const { token } = await signedInWithSongs(page, request, 'aigen');
    const progress = await waitForAnalysis(request, token);
    expect(progress.analysed).toBeGreaterThanOrEqual(fixtures.length);

    await page.goto('/ai-playlist');
    await page.getByRole('button', { name: 'Relaxing' }).click();
    await page.getByLabel('Your prompt').pressSequentially(' songs for a quiet evening');
    await expect(page.getByLabel('Your prompt')).toHaveValue('relaxing songs for a quiet evening');

    // Hold the answer back a little (the real server answers in milliseconds) so the bar can be seen moving.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/playlists/generate-playlist-by-prompt', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Generate Playlist' }).click();
    const bar = page.getByRole('progressbar', { name: 'Generating your playlist' });
    await expect(bar).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generating...' })).toBeDisabled();
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 5000 }).toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(95);
    await snap(page, 'ai-playlist-generating', { fullPage: false });
    release();

    await expect(toast(page, 'Playlist generated successfully!')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('AI Generated')).toBeVisible();
    // The bar belongs to the wait: no "Generating your playlist 100%" under the answer (issue 31).
    await expect(bar).toBeHidden();
    const rows = page.getByTestId('generated-song');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('song-reason').first()).not.toBeEmpty();
    await snap(page, 'ai-playlist-result');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'ai-playlist-result-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // View Playlist opens it among the user's playlists; Play All plays it in the player bar.
    const name = (await page.locator('#ai-result-name').textContent()) ?? '';
    await page.getByRole('link', { name: 'View Playlist' }).click();
    await expect(page).toHaveURL(/\/playlists\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByTestId('playlist-song')).toHaveCount(count);
    await expect(page.getByText('AI Generated')).toBeVisible();
    await expect(page.getByText('relaxing songs for a quiet evening', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Play All' }).click();
    await expect(playerBar(page)).toBeVisible();
    await expect(page.getByRole('group', { name: 'Playlist playback' }).getByRole('button', { name: 'Pause' })).toBeEnabled({ timeout: 15_000 });
    await snap(page, 'ai-playlist-opened');

    // Keep fresh (issue 41): off at first, the owner switches it on, and it stays on after a reload.
    const keepFresh = page.getByRole('switch', { name: 'Keep fresh' });
    await expect(keepFresh).toHaveAttribute('aria-checked', 'false');
    await keepFresh.click();
    await expect(keepFresh).toHaveAttribute('aria-checked', 'true');
    await expect(keepFresh).toBeEnabled();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Keep fresh' })).toHaveAttribute('aria-checked', 'true');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('switch', { name: 'Keep fresh' }).scrollIntoViewIfNeeded();
    await snap(page, 'ai-playlist-keep-fresh-phone', { fullPage: false });
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.reload();
    const keepFreshHe = page.getByRole('switch', { name: 'לשמור מעודכן' });
    await expect(keepFreshHe).toHaveAttribute('aria-checked', 'true');
    await keepFreshHe.scrollIntoViewIfNeeded();
    await snap(page, 'ai-playlist-keep-fresh-phone-he', { fullPage: false });
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.setViewportSize({ width: 1280, height: 800 });

    // It is one of My Playlists now.
    await page.goto('/playlists');
    await expect(page.getByRole('link', { name })).toBeVisible();

    // A new visit starts from a blank form.
    await page.goto('/ai-playlist');
    await expect(page.getByLabel('Your prompt')).toHaveValue('');
  });

  test('More like this from a song page; the analysis line', async ({ page, request }) => {
    test.setTimeout(180_000);
    const { token, ids } = await signedInWithSongs(page, request, 'aimore');
    await waitForAnalysis(request, token);
    await page.goto(`/music/${ids[0]}`);
    await expect(page.getByTestId('song-analysis')).toContainText('BPM');
    await snap(page, 'song-analysis-line');
    await page.getByRole('button', { name: 'More like this' }).click();
    await expect(toast(page, 'Playlist generated successfully!')).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/playlists\/\d+$/);
    await expect(page.getByTestId('playlist-song').first()).toBeVisible();
    await snap(page, 'more-like-this-playlist');
  });
});
