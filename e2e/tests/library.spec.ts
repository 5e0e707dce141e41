import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi, type SongFixture } from './media.js';
import { dropFiles, shareLinkFromOutbox, signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * The music library in a real browser: upload through the page, browse both views with their
 * covers, search and page, play in the player bar, like, download, share and delete.
 * Every test has its own account and reads "My Music", so songs other tests add to the shared
 * collection do not disturb it.
 */

type User = ReturnType<typeof uniqueUser>;

/** A run-unique word in every title, so a search matches only this test's songs. */
const run = Date.now().toString(36).slice(-5);

function song(title: string, extra: Partial<SongFixture> = {}): SongFixture {
  return { title: `${title} ${run}`, artist: 'Encore Band', seconds: 6, cover: 'red', ...extra };
}

/** displayName is "Artist - Title" when both tags are present; lists, labels and the player bar use it. */
function shownName(fixture: SongFixture): string {
  return `${fixture.artist} - ${fixture.title}`;
}

/** Headings say the title, with the artist on the line below rather than twice. */
async function expectHeadline(scope: Locator, fixture: SongFixture): Promise<void> {
  await expect(scope.getByRole('heading', { name: fixture.title, exact: true })).toBeVisible();
  await expect(scope.getByText(fixture.artist).first()).toBeVisible();
}

async function newAccountWithSongs(request: APIRequestContext, prefix: string, fixtures: SongFixture[]) {
  const user = uniqueUser(prefix);
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  const files = await Promise.all(fixtures.map((fixture) => makeSong(dir, fixture)));
  const token = await apiToken(request, user);
  const ids: number[] = [];
  // One after another, so "newest first" is the reverse of this order.
  for (const file of files) ids.push(await uploadViaApi(request, token, file));
  return { user, files, ids };
}

async function openMyMusic(page: Page): Promise<void> {
  await page.goto('/music?owner=true');
  await expect(page.getByRole('heading', { level: 1, name: 'My Music' })).toBeVisible();
}

function songCards(page: Page): Locator {
  return page.locator('#music-list').getByRole('article');
}

/** The card or row of a song, by its display name (its like button is named after it). */
function card(page: Page, name: string): Locator {
  return songCards(page).filter({ has: page.getByRole('button', { name: `Like ${name}`, exact: true }) });
}

/** Every cover image inside `scope` has loaded real pixels. */
async function expectCoversLoaded(scope: Locator, count: number): Promise<void> {
  const images = scope.locator('img');
  await expect(images).toHaveCount(count);
  for (const image of await images.all()) {
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => (element.complete ? element.naturalWidth : 0))).toBeGreaterThan(0);
  }
}

/** Every progress bar in `scope` has finished sliding to full width. */
async function expectBarsFilled(scope: Locator): Promise<void> {
  for (const bar of await scope.getByRole('progressbar').all()) {
    await expect.poll(() => bar.evaluate((element) => (element.firstElementChild as HTMLElement).offsetWidth / (element as HTMLElement).offsetWidth)).toBe(1);
  }
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Player' });
}

/** The position of the app's one audio element, in seconds. */
function audioTime(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? -1);
}

async function expectAudioAdvancing(page: Page, beyond = 1): Promise<void> {
  await expect.poll(() => audioTime(page), { timeout: 15_000, message: 'the audio position advances' }).toBeGreaterThan(beyond);
}

/** My Music through the Library menu: a client-side move, so the player keeps playing. */
async function goToMyMusicInApp(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Library' }).click();
  await page
    .getByRole('navigation', { name: 'Library' })
    .getByRole('link', { name: /My Music/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Music' })).toBeVisible();
}

async function signIn(page: Page, user: User): Promise<void> {
  await signInThroughUi(page, user);
}

test.describe('the music library in a real browser', () => {
  test('upload by picking several files and by dropping several files, each with its own progress', async ({ page, request }) => {
    const user = uniqueUser('upload');
    await signUpViaApi(request, user);
    const dir = await fixtureDir();
    const picked = [song('Crimson Dawn', { cover: 'red', frequency: 330 }), song('Azure Tide', { cover: 'blue', frequency: 550 })];
    // Longer songs for the drop, so the throttled upload below is slow enough to watch.
    const dropped = [
      song('Golden Hour', { cover: 'gold', seconds: 30, frequency: 660 }),
      song('Emerald Rain', { cover: 'green', seconds: 30, frequency: 440 }),
    ];
    const pickedFiles = await Promise.all(picked.map((fixture) => makeSong(dir, fixture)));
    const droppedFiles = await Promise.all(dropped.map((fixture) => makeSong(dir, fixture)));

    await signIn(page, user);
    await page.getByRole('link', { name: 'Upload', exact: true }).first().click();
    await expect(page).toHaveURL(/\/upload$/);
    // The e2e server allows 200 MB (playwright.config.ts): the page says the server's real limit.
    await expect(page.getByText('Up to 200MB per file')).toBeVisible();
    const uploadButton = page.getByRole('button', { name: 'Upload Music File' });
    await expect(uploadButton).toBeDisabled();

    // Several files picked at once in the file chooser.
    await page.getByLabel('Choose music files').setInputFiles(pickedFiles);
    const selected = page.getByRole('list', { name: 'Selected files' });
    for (const file of pickedFiles) await expect(selected.getByText(path.basename(file))).toBeVisible();
    await snap(page, 'upload-selected');
    await uploadButton.click();
    for (const file of pickedFiles) {
      await expect(page.getByRole('progressbar', { name: `Upload progress of ${path.basename(file)}` })).toHaveAttribute('aria-valuenow', '100');
    }
    await expect(selected.getByText('Uploaded', { exact: true })).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Upload Complete' })).toBeDisabled();
    await expect(page.getByText('Upload successful')).toBeVisible();
    await expectBarsFilled(selected);
    await snap(page, 'upload-done');
    // The selection clears after 3 s (SPEC 4) and the button is ready again.
    await expect(selected).toHaveCount(0, { timeout: 10_000 });
    await expect(uploadButton).toBeDisabled();

    // Several files dropped at once, uploaded over a slow line so each row's progress shows.
    const dropZone = page.getByRole('button', { name: /Drag and drop your music files here/ });
    await dropFiles(page, dropZone, droppedFiles);
    for (const file of droppedFiles) await expect(selected.getByText(path.basename(file))).toBeVisible();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await uploadButton.click();
    const firstProgress = page.getByRole('progressbar', { name: `Upload progress of ${path.basename(droppedFiles[0] ?? '')}` });
    await expect.poll(async () => Number(await firstProgress.getAttribute('aria-valuenow')), { message: 'the first file reports progress' }).toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: /Uploading\.\.\. \d+%/ })).toBeVisible();
    // The second file waits its turn, and says so.
    await expect(selected.getByRole('listitem').filter({ hasText: path.basename(droppedFiles[1] ?? '') })).toContainText('Waiting');
    await snap(page, 'upload-progress');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    for (const file of droppedFiles) {
      await expect(page.getByRole('progressbar', { name: `Upload progress of ${path.basename(file)}` })).toHaveAttribute('aria-valuenow', '100', {
        timeout: 20_000,
      });
    }
    await expect(selected.getByText('Uploaded', { exact: true })).toHaveCount(2);

    // All four are in My Music, with their covers.
    await openMyMusic(page);
    await expect(songCards(page)).toHaveCount(4);
    for (const fixture of [...picked, ...dropped]) await expect(card(page, shownName(fixture))).toBeVisible();
    await expectCoversLoaded(page.locator('#music-list'), 4);
  });

  test('grid and compact views show covers; search, no results and paging', async ({ page, request }) => {
    const fixtures = [
      song('Scarlet Song', { cover: 'red' }),
      song('Cobalt Song', { cover: 'blue' }),
      // Nine more, so the grid (8 a page) has two pages and compact (12 a page) has two too.
      ...Array.from({ length: 11 }, (_, index) => song(`Filler ${String(index + 1).padStart(2, '0')}`, { seconds: 2, cover: index % 2 ? 'purple' : 'orange' })),
    ];
    const { user } = await newAccountWithSongs(request, 'browse', fixtures);
    await signIn(page, user);
    await openMyMusic(page);
    await expect(page.getByText('13 songs')).toBeVisible();

    // Grid: 8 cards on page 1, newest first; every cover has loaded.
    await page.getByRole('button', { name: 'Grid view' }).click();
    await expect(songCards(page)).toHaveCount(8);
    await expect(songCards(page).first()).toContainText('Filler 11');
    await expectHeadline(songCards(page).first(), fixtures[12]!);
    await expectCoversLoaded(page.locator('#music-list'), 8);
    await snap(page, 'music-grid');

    const pages = page.getByRole('navigation', { name: 'Pages' });
    await expect(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect(pages.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(songCards(page)).toHaveCount(5);
    await expect(card(page, shownName(fixtures[0]!))).toBeVisible();
    await expectCoversLoaded(page.locator('#music-list'), 5);
    await expect(pages.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await pages.getByRole('button', { name: 'Page 1' }).click();
    await expect(songCards(page)).toHaveCount(8);

    // Compact: 12 rows a page, covers too.
    await page.getByRole('button', { name: 'Compact view' }).click();
    await expect(songCards(page)).toHaveCount(12);
    await expectCoversLoaded(page.locator('#music-list'), 12);
    await snap(page, 'music-compact');
    await pages.getByRole('button', { name: 'Page 2' }).click();
    await expect(songCards(page)).toHaveCount(1);
    await pages.getByRole('button', { name: 'Previous page' }).click();
    await expect(songCards(page)).toHaveCount(12);

    // Search filters case-insensitively and starts again on page 1.
    await pages.getByRole('button', { name: 'Page 2' }).click();
    const search = page.getByRole('searchbox', { name: 'Search songs' });
    await search.fill('cobalt');
    await expect(songCards(page)).toHaveCount(1);
    await expect(card(page, shownName(fixtures[1]!))).toBeVisible();
    await expect(pages).toHaveCount(0);
    // Every word of the search must match (title, artist or album), on the server, over all pages.
    await search.fill('FILLER');
    await expect(songCards(page)).toHaveCount(11);

    await search.fill('no such song anywhere');
    await expect(page.getByRole('heading', { name: 'No Results Found' })).toBeVisible();
    await snap(page, 'music-no-results');
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(search).toHaveValue('');
    await expect(songCards(page)).toHaveCount(12);

    // The compact view is remembered.
    await page.reload();
    await expect(songCards(page)).toHaveCount(12);
  });

  test('play from a card: the player bar advances, next and previous wrap around', async ({ page, request }) => {
    const fixtures = [
      song('First Light', { seconds: 40, cover: 'red', frequency: 300 }),
      song('Second Wind', { seconds: 40, cover: undefined, frequency: 400 }),
      song('Third Rail', { seconds: 40, cover: 'teal', frequency: 500 }),
    ];
    const { user, files } = await newAccountWithSongs(request, 'player', fixtures);
    const [first, second, third] = fixtures.map(shownName) as [string, string, string];
    await signIn(page, user);
    await openMyMusic(page);
    // Newest first: Third, Second, First.
    await expect(songCards(page)).toHaveCount(3);
    await expect(songCards(page).first()).toContainText(fixtures[2]!.title);

    await card(page, second)
      .getByRole('button', { name: `Play ${second}` })
      .click();
    const bar = playerBar(page);
    await expect(bar).toBeVisible();
    await expect(bar.getByRole('link', { name: second })).toBeVisible();
    await expectAudioAdvancing(page, 1.2);
    await expect(bar.getByTestId('player-elapsed')).not.toHaveText('0:00');
    await expect(bar.getByTestId('player-duration')).toHaveText('0:40');
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeEnabled();
    await expect(card(page, second).getByText('Now playing')).toBeVisible();
    // Title over artist, and size · upload date beneath, formatted as the cards format them.
    await expect(bar.getByTestId('player-title')).toHaveText(fixtures[1]!.title);
    await expect(bar.getByTestId('player-artist')).toHaveText(fixtures[1]!.artist);
    const secondSize = `${((await stat(files[1]!)).size / 1024).toFixed(1)} KB`;
    const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }).format(new Date());
    await expect(bar.getByTestId('player-details')).toHaveText(`${secondSize} · ${today}`);
    // The song without a cover shows the same placeholder in the bar as on its card.
    await expect(card(page, second).locator('img')).toHaveCount(0);
    await expect(bar.locator('img')).toHaveCount(0);
    await snap(page, 'player-bar', { fullPage: false });

    // Pause holds the position; play carries on from it.
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect(bar.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    const held = await audioTime(page);
    await expect.poll(() => audioTime(page)).toBeCloseTo(held, 1);
    await bar.getByRole('button', { name: 'Play', exact: true }).click();
    await expectAudioAdvancing(page, held + 0.5);

    // Next goes down the list, and wraps from the last to the first.
    await bar.getByRole('button', { name: 'Next' }).click();
    await expect(bar.getByRole('link', { name: first })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);
    await bar.getByRole('button', { name: 'Next' }).click();
    await expect(bar.getByRole('link', { name: third })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);
    // Previous wraps from the first to the last, then comes back.
    await bar.getByRole('button', { name: 'Previous' }).click();
    await expect(bar.getByRole('link', { name: first })).toBeVisible();
    await bar.getByRole('button', { name: 'Previous' }).click();
    await expect(bar.getByRole('link', { name: second })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);

    // Space pauses and plays anywhere on the page.
    await page.locator('body').press(' ');
    await expect(bar.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    await page.locator('body').press(' ');
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();

    // At the end of a song the next one starts by itself.
    const barSeek = bar.getByRole('slider', { name: 'Seek' });
    await barSeek.focus();
    await barSeek.press('End');
    await expect(bar.getByRole('link', { name: first })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);
    await bar.getByRole('button', { name: 'Previous' }).click();
    await expect(bar.getByRole('link', { name: second })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);

    // The music carries on while moving to another page.
    await page.getByRole('link', { name: 'Upload', exact: true }).first().click();
    await expect(page).toHaveURL(/\/upload$/);
    await expect(bar.getByRole('link', { name: second })).toBeVisible();
    const before = await audioTime(page);
    await expectAudioAdvancing(page, before + 0.5);

    // Another song's card plays that song.
    await goToMyMusicInApp(page);
    await expect(bar).toBeVisible();
    await expect(card(page, second).getByRole('button', { name: `Stop ${second}` })).toBeVisible();
    await card(page, first)
      .getByRole('button', { name: `Play ${first}` })
      .click();
    await expect(bar.getByRole('link', { name: first })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);

    // On a phone the bar keeps its controls and the seek row.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(bar.getByRole('slider', { name: 'Seek' })).toBeVisible();
    await snap(page, 'player-bar-phone', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });

    await bar.getByRole('button', { name: 'Close player' }).click();
    await expect(bar).toHaveCount(0);
    expect(await audioTime(page)).toBe(0);

    // Clicking the song that is playing closes the player (SPEC 4); only the bar's button pauses.
    await card(page, third)
      .getByRole('button', { name: `Play ${third}` })
      .click();
    await expect(bar.getByRole('link', { name: third })).toBeVisible();
    await expectAudioAdvancing(page, 0.5);
    await card(page, third)
      .getByRole('button', { name: `Stop ${third}` })
      .click();
    await expect(bar).toHaveCount(0);
    expect(await audioTime(page)).toBe(0);
    await expect(card(page, third).getByRole('button', { name: `Play ${third}` })).toBeVisible();
    await expect(card(page, third).getByText('Now playing')).toHaveCount(0);
  });

  test('song detail: cover, play and seek, like with a heart, favorites, file information, download', async ({ page, request }) => {
    const fixtures = [song('Velvet Night', { seconds: 20, cover: 'purple' }), song('Plain Morning', { seconds: 4 })];
    const { user, files, ids } = await newAccountWithSongs(request, 'detail', fixtures);
    const [velvet, plain] = fixtures.map(shownName) as [string, string];
    await signIn(page, user);
    await openMyMusic(page);
    await expectHeadline(card(page, velvet), fixtures[0]!);
    await card(page, velvet).getByRole('link', { name: fixtures[0]!.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/music/${ids[0]}$`));
    await expect(page.getByRole('heading', { level: 1, name: fixtures[0]!.title, exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`${velvet} · Encore`);
    await expectCoversLoaded(page.locator('article').first(), 1);

    // File information.
    const info = page.getByRole('heading', { name: 'File Information' }).locator('..');
    await expect(info.getByText('MP3', { exact: true })).toBeVisible();
    const size = (await stat(files[0]!)).size;
    await expect(info.getByText(`${(size / 1024).toFixed(1)} KB`)).toBeVisible();
    // The tags sit under the cover on a wide screen.
    const details = page.getByRole('heading', { name: 'Details' }).locator('..');
    await expect(details.getByText('0:20')).toBeVisible();

    // Play, then seek by clicking the middle of the bar; the time reads m:ss.
    await expect(page.getByTestId('song-elapsed')).toHaveText('0:00');
    await expect(page.getByTestId('song-duration')).toHaveText('0:20');
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await expect(page.getByRole('button', { name: 'Pause', exact: true }).first()).toBeVisible();
    await expectAudioAdvancing(page, 0.5);
    const seekBar = page.getByRole('slider', { name: 'Song position' });
    await expect(seekBar).toBeEnabled();
    const box = await seekBar.boundingBox();
    if (!box) throw new Error('the seek bar has no box');
    await seekBar.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
    await expect.poll(() => audioTime(page)).toBeGreaterThan(10);
    await expect(page.getByTestId('song-elapsed')).toHaveText(/^0:1\d$/);
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
    await expect(page.getByRole('button', { name: 'Play', exact: true }).first()).toBeVisible();
    // Playing to the end stops it and goes back to the start (SPEC 4).
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await seekBar.focus();
    await seekBar.press('End');
    await expect(page.getByRole('button', { name: 'Play', exact: true }).first()).toBeVisible();
    await expect(page.getByTestId('song-elapsed')).toHaveText('0:00');
    await expect.poll(() => audioTime(page)).toBe(0);

    // Like: the heart floats up for about a second and the button stays pressed.
    const like = page.getByRole('button', { name: `Like ${velvet}` });
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(like.locator('svg.animate-float-heart')).toHaveCount(1);
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await snap(page, 'song-detail');
    await expect(like.locator('svg.animate-float-heart')).toHaveCount(0, { timeout: 5_000 });

    // Download the original under its own name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe(path.basename(files[0]!));
    const saved = await download.path();
    expect((await stat(saved)).size).toBe(size);
    expect(Buffer.compare(await readFile(saved), await readFile(files[0]!))).toBe(0);
    await expect(page.getByText('Download started')).toBeVisible();

    // The liked song is under Favorites; the other one is not.
    await page.getByRole('button', { name: 'Library' }).click();
    await page
      .getByRole('navigation', { name: 'Library' })
      .getByRole('link', { name: /Favorites/ })
      .click();
    await expect(page).toHaveURL(/owner=true&favorites=true/);
    await expect(page.getByRole('heading', { level: 1, name: 'My Favorites' })).toBeVisible();
    await expect(songCards(page)).toHaveCount(1);
    await expect(card(page, velvet)).toBeVisible();
    await expect(card(page, plain)).toHaveCount(0);
    await expect(card(page, velvet).getByRole('button', { name: `Like ${velvet}` })).toHaveAttribute('aria-pressed', 'true');

    // Unliked on Favorites, it is no longer a favourite: its card goes at once.
    await card(page, velvet)
      .getByRole('button', { name: `Like ${velvet}` })
      .click();
    await expect(card(page, velvet)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No favourites yet' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'No favourites yet' })).toBeVisible();
    await snap(page, 'music-favorites-empty');
  });

  test('share by e-mail; the link from the outbox plays signed out', async ({ page, request, browser }) => {
    const fixtures = [song('Shared Echo', { seconds: 12, cover: 'navy' })];
    const { user, ids } = await newAccountWithSongs(request, 'share', fixtures);
    const name = shownName(fixtures[0]!);
    const friend = `friend-${run}-${Math.floor(Math.random() * 1e6)}@example.com`;
    await signIn(page, user);
    await page.goto(`/music/${ids[0]}`);
    await expect(page.getByRole('heading', { level: 1, name: fixtures[0]!.title })).toBeVisible();

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share by Email' });
    await expect(dialog).toContainText(name);
    const send = dialog.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    await dialog.getByLabel('Email Address').fill('not-an-address');
    await send.click();
    await expect(dialog.getByText('Please enter a valid email address.')).toBeVisible();
    await dialog.getByLabel('Email Address').fill(friend);
    await snap(page, 'share-dialog');
    await send.click();
    await expect(page.getByText('Email sent successfully!')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    const link = await shareLinkFromOutbox(friend);
    expect(new URL(link).pathname).toMatch(/^\/share\/[\w-]+$/);

    // A visitor without an account.
    const guest = await browser.newContext();
    try {
      const visitor = await guest.newPage();
      await visitor.goto(link);
      await expect(visitor.getByRole('heading', { level: 1, name: fixtures[0]!.title, exact: true })).toBeVisible();
      await expect(visitor.getByText('Encore Band · 0:12')).toBeVisible();
      await expect(visitor.getByText(`Shared by ${user.userName}`)).toBeVisible();
      await expect(visitor.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
      await expectCoversLoaded(visitor.locator('main'), 1);
      const audio = visitor.getByLabel(`Play ${name}`);
      await expect
        .poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState), { message: 'the shared song loads' })
        .toBeGreaterThanOrEqual(1);
      expect(await audio.evaluate((element: HTMLAudioElement) => Math.round(element.duration))).toBe(12);
      // Encore's own player, not the browser's stock control.
      await visitor.getByRole('button', { name: 'Play', exact: true }).click();
      await expect(visitor.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
      await expect
        .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 15_000, message: 'the shared song plays' })
        .toBeGreaterThan(0.5);
      await snap(visitor, 'share-page');

      // A made-up token is a clear dead end, not a crash.
      await visitor.goto('/share/not-a-real-token');
      await expect(visitor.getByRole('heading', { name: 'Link Unavailable' })).toBeVisible();
      await snap(visitor, 'share-invalid');
    } finally {
      await guest.close();
    }
  });

  test('the uploader deletes their own song after confirming', async ({ page, request, browser }) => {
    const fixtures = [song('Keep Me', { seconds: 2 }), song('Delete Me', { seconds: 2, cover: 'maroon' })];
    const { user, ids } = await newAccountWithSongs(request, 'delete', fixtures);
    const [keep, doomed] = fixtures.map(shownName) as [string, string];

    // Someone else sees the song but no Delete button.
    const other = uniqueUser('other');
    await signUpViaApi(request, other);
    const otherContext = await browser.newContext();
    try {
      const otherPage = await otherContext.newPage();
      await signIn(otherPage, other);
      await otherPage.goto(`/music/${ids[1]}`);
      await expect(otherPage.getByRole('heading', { level: 1, name: fixtures[1]!.title })).toBeVisible();
      await expect(otherPage.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
      await expect(otherPage.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    } finally {
      await otherContext.close();
    }

    await signIn(page, user);
    await page.goto(`/music/${ids[1]}`);
    await expect(page.getByRole('heading', { level: 1, name: fixtures[1]!.title })).toBeVisible();
    // It is playing when it goes.
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await expect(playerBar(page).getByRole('link', { name: doomed })).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this song?' });
    await expect(confirm).toContainText(doomed);
    await snap(page, 'song-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: fixtures[1]!.title })).toBeVisible();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete Song' }).click();
    await expect(page).toHaveURL(/\/music$/);
    await expect(page.getByText(`"${doomed}" was deleted`)).toBeVisible();
    await expect(playerBar(page)).toHaveCount(0);
    await openMyMusic(page);
    await expect(songCards(page)).toHaveCount(1);
    await expect(card(page, keep)).toBeVisible();

    await page.goto(`/music/${ids[1]}`);
    await expect(page.getByRole('heading', { name: 'Song Not Found' })).toBeVisible();
  });

  test('in Hebrew the library reads right to left, and playback time still runs left to right', async ({ browser, request }) => {
    const fixtures = [song('Shir Ehad', { seconds: 20, cover: 'purple' }), song('Shir Sheni', { seconds: 20, cover: 'teal' })];
    const { user, ids } = await newAccountWithSongs(request, 'hebrew', fixtures);
    const token = await apiToken(request, user);
    const context = await browser.newContext({ locale: 'he-IL' });
    try {
      // Signed in the way a remembered session is: the token in local storage.
      await context.addInitScript(
        ({ token: stored, userName, email }) => {
          localStorage.setItem('token', stored);
          localStorage.setItem('userName', userName);
          localStorage.setItem('email', email);
        },
        { token, userName: user.userName, email: user.email },
      );
      const page = await context.newPage();
      await page.goto('/music?owner=true');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1, name: 'המוזיקה שלי' })).toBeVisible();
      await expect(songCards(page)).toHaveCount(2);
      await expectCoversLoaded(page.locator('#music-list'), 2);
      await songCards(page).first().getByRole('link', { name: fixtures[1]!.title, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/music/${ids[1]}$`));
      await expect(page.getByRole('heading', { level: 1, name: fixtures[1]!.title })).toBeVisible();
      await page.getByRole('button', { name: 'ניגון', exact: true }).first().click();
      await expectAudioAdvancing(page, 0.5);
      const bar = page.getByRole('region', { name: 'נגן' });
      await expect(bar.getByRole('button', { name: 'השהיה' })).toBeVisible();
      // Size · date beneath the title and artist, the date in Hebrew.
      const today = new Intl.DateTimeFormat('he-IL', { month: 'short', day: 'numeric' }).format(new Date());
      await expect(bar.getByTestId('player-details')).toHaveText(new RegExp(`^\\u2066\\d+\\.\\d KB\\u2069 · ${today}$`));
      await snap(page, 'player-bar-hebrew', { fullPage: false });
      // Elapsed on the left, duration on the right, in both the bar and the song page.
      for (const [elapsed, total] of [
        [bar.getByTestId('player-elapsed'), bar.getByTestId('player-duration')],
        [page.getByTestId('song-elapsed'), page.getByTestId('song-duration')],
      ] as const) {
        const left = await elapsed.boundingBox();
        const right = await total.boundingBox();
        expect(left && right && left.x < right.x).toBe(true);
      }
      await snap(page, 'song-detail-hebrew', { fullPage: false });
    } finally {
      await context.close();
    }
  });
});
