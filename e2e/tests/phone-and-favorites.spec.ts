import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * What a picky user noticed (issue 9): Favorites holds every song the user liked, whoever
 * uploaded it; Log Out from a protected page lands on /; and a 390 px phone neither scrolls
 * sideways on any page nor cuts the player bar's title and artist to nonsense.
 */

const run = Date.now().toString(36).slice(-5);
const PHONE = { width: 390, height: 844 };

async function apiPost(page: Page, token: string, url: string, data?: unknown) {
  const response = await page.request.post(url, { headers: { authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as { id: number };
}

async function phonePage(browser: Browser, user: { userName: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signInThroughUi(page, user);
  return page;
}

/** How far the page scrolls sideways, in CSS pixels (0 when it fits). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe('favorites, log out and the phone layout', () => {
  test('Favorites lists a song someone else uploaded once liked, and drops it at once when unliked', async ({ page, request }) => {
    const uploader = uniqueUser('upl');
    const fan = uniqueUser('fan');
    await signUpViaApi(request, uploader);
    await signUpViaApi(request, fan);
    const dir = await fixtureDir();
    const file = await makeSong(dir, { title: `Borrowed ${run}`, artist: 'Other Band', seconds: 3 });
    const id = await uploadViaApi(request, await apiToken(request, uploader), file);

    await signInThroughUi(page, fan);
    await page.goto(`/music/${id}`);
    await page.getByRole('button', { name: `Like Other Band - Borrowed ${run}` }).click();
    await expect(page.getByRole('button', { name: `Like Other Band - Borrowed ${run}` })).toHaveAttribute('aria-pressed', 'true');

    await page.goto('/');
    await page.getByRole('button', { name: 'Library' }).click();
    await page
      .getByRole('navigation', { name: 'Library' })
      .getByRole('link', { name: /Favorites/ })
      .click();
    await expect(page).toHaveURL(/\/music\?owner=true&favorites=true$/);
    const list = page.locator('#music-list');
    await expect(list.getByRole('heading', { name: `Borrowed ${run}` })).toBeVisible();

    await list.getByRole('button', { name: `Like Other Band - Borrowed ${run}` }).click();
    await expect(list.getByRole('heading', { name: `Borrowed ${run}` })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No favourites yet' })).toBeVisible();
    await expect(list.getByRole('link', { name: 'Browse All Music' })).toHaveAttribute('href', '/music');
  });

  test('Log Out from a protected page goes to /', async ({ page, request }) => {
    const user = uniqueUser('out');
    await signUpViaApi(request, user);
    await signInThroughUi(page, user);
    await page.goto('/music?owner=true');
    await expect(page.getByRole('heading', { level: 1, name: 'My Music' })).toBeVisible();
    await page.getByRole('button', { name: 'Open profile' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your Music, Elevated' })).toBeVisible();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toBeVisible();
  });

  test('on a 390 px phone no page scrolls sideways, and the player bar reads title and artist on an opaque bar', async ({ browser, request }) => {
    const user = uniqueUser('phn');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const long = {
      title: `A Very Long Song Title That Goes On And On Beyond Any Card ${run}`,
      artist: 'The Extraordinarily Long-Named Orchestra of Everything',
      seconds: 8,
      cover: 'purple',
    };
    const short = { title: `Short ${run}`, artist: 'WAV Artist', seconds: 8 };
    const ids: number[] = [];
    for (const fixture of [short, long]) ids.push(await uploadViaApi(request, token, await makeSong(dir, fixture)));
    const page = await phonePage(browser, user);
    const playlist = await apiPost(page, token, '/api/playlists', {
      name: `Long songs ${run}`,
      description: 'Songs with very long names, one line each on the card.',
    });
    for (const id of ids) await apiPost(page, token, `/api/playlists/${playlist.id}/songs`, { SongId: id });

    for (const path of [
      '/',
      '/music',
      '/music?owner=true',
      `/music/${ids[1]}`,
      '/upload',
      '/playlists',
      `/playlists/${playlist.id}`,
      '/create-playlist',
      '/profile',
      '/nowhere',
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await sidewaysOverflow(page), `${path} scrolls sideways`).toBe(0);
    }
    await page.goto('/playlists');
    await expect(page.getByRole('heading', { name: `Long songs ${run}` })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBe(0);
    await snap(page, 'phone-playlists');

    // The player bar: play the short song, whose title and artist must both be readable in full.
    await page.goto('/music?owner=true');
    await page.getByRole('button', { name: `Play WAV Artist - Short ${run}` }).click();
    const bar = page.getByRole('region', { name: 'Player' });
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeEnabled({ timeout: 15_000 });
    const title = bar.getByTestId('player-title');
    const artist = bar.getByTestId('player-artist');
    await expect(title).toHaveText(`Short ${run}`);
    await expect(artist).toHaveText('WAV Artist');
    for (const line of [title, artist]) {
      // Shown whole: nothing cut off with an ellipsis.
      expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    expect(await bar.evaluate((element) => getComputedStyle(element).backgroundColor)).toMatch(/^rgb\(/);
    // Previous and next stay in place (disabled only where there is no neighbour, here none are missing).
    await expect(bar.getByRole('button', { name: 'Previous' })).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Next' })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBe(0);

    // The lock screen and the system's media controls know the song.
    await expect
      .poll(() =>
        page.evaluate(() => ({
          title: navigator.mediaSession.metadata?.title,
          artist: navigator.mediaSession.metadata?.artist,
          state: navigator.mediaSession.playbackState,
        })),
      )
      .toEqual({ title: `Short ${run}`, artist: 'WAV Artist', state: 'playing' });
    await snap(page, 'phone-player', { fullPage: false });

    // A long title is cut to fit, yet still starts with its first words.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(title).toHaveText(long.title);
    expect(await title.evaluate((element) => element.getBoundingClientRect().width)).toBeGreaterThan(200);
    await page.context().close();
  });
});
