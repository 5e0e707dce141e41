import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './accessibility.js';
import { apiToken } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * Browsing like a collector (issue 38): a music folder with a two-disc album (its files named so
 * that their order is not the album's), a compilation without an album artist and an untagged
 * file. Artists → the artist → the album → Play plays disc 1 track 1 first and the album in
 * order; the compilation is one album under Various Artists; the untagged file is under Unknown
 * Artist. Phone and Hebrew screenshots, axe on each new page's own content (main: the shell's footer
 * fails contrast on its own, not this feature's). The files are taken out at the end.
 */

const run = promisify(execFile);
const musicDir = process.env['E2E_MUSIC_DIR'] ?? '';
const word = `br${Date.now().toString(36).slice(-5)}`;
const ourTree = path.join(musicDir, `Encore browse ${word}`);
const artist = `Duo ${word}`;
const album = `Twin Discs ${word}`;
const compilation = `Mix ${word}`;
const untagged = `untagged-${word}`;

/** [file, tags]: the two-disc album's files sort disc 2 first. */
const FILES: [string, Record<string, string>][] = [
  ['Twin/a.mp3', { title: `Second Side Opener ${word}`, artist, album_artist: artist, album, disc: '2', track: '1', date: '1999' }],
  ['Twin/b.mp3', { title: `Second Side Closer ${word}`, artist, album_artist: artist, album, disc: '2', track: '2', date: '1999' }],
  ['Twin/c.mp3', { title: `First Side Closer ${word}`, artist, album_artist: artist, album, disc: '1', track: '2', date: '1999' }],
  ['Twin/d.mp3', { title: `First Side Opener ${word}`, artist, album_artist: artist, album, disc: '1', track: '1', date: '1999' }],
  ['Mix/01.mp3', { title: `Mix One ${word}`, artist: `Alpha ${word}`, album: compilation, track: '1' }],
  ['Mix/02.mp3', { title: `Mix Two ${word}`, artist: `Beta ${word}`, album: compilation, track: '2' }],
  [`Loose/${untagged}.mp3`, {}],
];

async function tone(file: string, tags: Record<string, string>, frequency: number): Promise<void> {
  const metadata = Object.entries(tags).flatMap(([name, value]) => ['-metadata', `${name}=${value}`]);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=4`,
    '-map_metadata',
    '-1',
    ...metadata,
    '-id3v2_version',
    '3',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    file,
  ]);
}

const bar = (page: Page) => page.getByRole('region', { name: 'Player' });

/** Nothing wider than the window: a phone never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe('browsing by artist, album and genre', () => {
  const user = uniqueUser('browse');

  test.beforeAll(async ({ request }) => {
    expect(musicDir, 'E2E_MUSIC_DIR is set by playwright.config.ts').toBeTruthy();
    const staging = await mkdtemp(path.join(path.dirname(musicDir), 'encore-e2e-browse-'));
    const tree = path.join(staging, 'tree');
    let frequency = 300;
    for (const [file, tags] of FILES) {
      await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
      await tone(path.join(tree, file), tags, (frequency += 40));
    }
    await rename(tree, ourTree);
    await rm(staging, { recursive: true, force: true });
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    // The watcher picks the folder up: wait until its albums are listed.
    await expect
      .poll(
        async () => {
          const answer = await request.get(`/api/albums?q=${word}`, { headers: { authorization: `Bearer ${token}` } });
          return ((await answer.json()) as { items: { name: string }[] }).items.map((item) => item.name).sort();
        },
        { timeout: 60_000, intervals: [500, 1_000, 2_000] },
      )
      .toEqual([compilation, album]);
  });

  test.afterAll(async () => {
    await rm(ourTree, { recursive: true, force: true });
  });

  test('Artists → artist → album → Play plays disc 1 track 1 and the album in order; the compilation is one album under Various Artists', async ({ page }) => {
    // Five pages, each checked with axe, and four songs played: more than the default minute on a loaded machine.
    test.setTimeout(180_000);
    await signInThroughUi(page, user);
    await page.getByRole('button', { name: 'Library' }).click();
    await page.getByRole('link', { name: /^Artists/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Artists' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search artists' }).fill(word);
    // The compilation's artists are track artists only: Duo is the one album artist with the word.
    await expect(page.getByTestId('artist-card')).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, ['main']);
    await page.getByRole('link', { name: artist }).click();

    await expect(page.getByRole('heading', { level: 1, name: artist })).toBeVisible();
    await expectNoSeriousA11yViolations(page, ['main']);
    await page.getByRole('link', { name: album }).click();

    await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Disc 1' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Disc 2' })).toBeVisible();
    await expect(page.getByTestId('song-row')).toHaveText([
      new RegExp(`First Side Opener ${word}`),
      new RegExp(`First Side Closer ${word}`),
      new RegExp(`Second Side Opener ${word}`),
      new RegExp(`Second Side Closer ${word}`),
    ]);
    await expectNoSeriousA11yViolations(page, ['main']);
    await snap(page, 'browse-album-desktop');

    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const playing = (title: string) => expect(bar(page).getByRole('link', { name: new RegExp(title) })).toBeVisible();
    await playing(`First Side Opener ${word}`);
    for (const next of [`First Side Closer ${word}`, `Second Side Opener ${word}`, `Second Side Closer ${word}`]) {
      await bar(page).getByRole('button', { name: 'Next' }).click();
      await playing(next);
    }

    // The compilation: one album, under Various Artists.
    await page.goto(`/albums`);
    await page.getByRole('searchbox', { name: 'Search albums' }).fill(compilation);
    await expect(page.getByTestId('album-card')).toHaveCount(1);
    await expect(page.getByTestId('album-card')).toContainText('Various Artists');
    await expectNoSeriousA11yViolations(page, ['main']);
    await page.goto('/genres');
    await expect(page.getByRole('heading', { level: 1, name: 'Genres' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, ['main']);

    // The untagged file: Unknown Artist, Unknown Album.
    await page.goto('/artists');
    await page.getByRole('searchbox', { name: 'Search artists' }).fill('Unknown Artist');
    await page.getByRole('link', { name: 'Unknown Artist' }).click();
    await page.getByRole('link', { name: 'Unknown Album' }).click();
    await expect(page.getByTestId('song-row').filter({ hasText: untagged })).toHaveCount(1);
  });

  test("an album's Like and Add to Playlist; a song card's artist link; a search shows artists and albums as groups", async ({ page }) => {
    // Six pages and a playlist made on the way: minutes on a loaded machine.
    test.setTimeout(240_000);
    await signInThroughUi(page, user);
    await page.goto('/albums');
    await page.getByRole('searchbox', { name: 'Search albums' }).fill(album);
    await page.getByRole('link', { name: album }).click();
    await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible();
    const albumUrl = page.url();

    // Like likes every song of the album; pressed once all are; again unlikes them all.
    const like = page.getByRole('button', { name: 'Like', exact: true });
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await page.goto('/music?favorites=true');
    await page.getByRole('searchbox', { name: 'Search songs' }).fill(word);
    await expect(page.getByRole('article')).toHaveCount(4);
    await page.goto(albumUrl);
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'false');

    // Add to Playlist: the song page's dialog, a new playlist made on the spot, the album's songs in order.
    await page.getByRole('button', { name: 'Add to Playlist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Playlist' });
    await dialog.getByLabel('New playlist').fill(`Album ${word}`);
    await dialog.getByRole('button', { name: 'Create and Add' }).click();
    await expect(page.getByText('4 songs added to playlist')).toBeVisible();
    await page.getByRole('button', { name: 'View Playlist' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Album ${word}` })).toBeVisible();
    await expect(page.getByTestId('playlist-song')).toHaveText([
      new RegExp(`First Side Opener ${word}`),
      new RegExp(`First Side Closer ${word}`),
      new RegExp(`Second Side Opener ${word}`),
      new RegExp(`Second Side Closer ${word}`),
    ]);
    // Each row links its album too.
    await expect(page.getByTestId('playlist-song').first().getByRole('link', { name: album })).toHaveAttribute('href', /^\/albums\//);

    // A song card links its artist (and album); the rest of the card still opens the song.
    await page.goto('/music');
    await page.getByRole('searchbox', { name: 'Search songs' }).fill(`Mix One ${word}`);
    const card = page.getByRole('article').filter({ hasText: `Mix One ${word}` });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole('link', { name: compilation })).toHaveAttribute('href', /^\/albums\//);
    await expect(card.getByRole('link', { name: `Mix One ${word}` })).toHaveAttribute('href', /^\/music\/\d+$/);
    await card.getByRole('link', { name: `Alpha ${word}` }).click();
    // A compilation's track artist: the artist page lists the album they appear on.
    await expect(page.getByRole('heading', { level: 1, name: `Alpha ${word}` })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Appears on' })).toBeVisible();
    await expect(page.getByTestId('album-card').filter({ hasText: compilation })).toHaveCount(1);

    // Search: the artists and albums matching, as two groups above the songs.
    await page.goto('/music');
    await page.getByRole('searchbox', { name: 'Search songs' }).fill(word);
    const groups = page.getByRole('region', { name: `Artists and albums matching "${word}"` });
    await expect(groups.getByRole('link', { name: artist, exact: true })).toBeVisible();
    await expect(groups.getByRole('link', { name: new RegExp(album) })).toBeVisible();
    await expect(groups.getByRole('link', { name: new RegExp(compilation) })).toBeVisible();
    await expect(page.getByRole('article').first()).toBeVisible();
    // The groups' own content (the song cards' date line below fails contrast on its own, not this feature's).
    await expectNoSeriousA11yViolations(page, ['[data-testid="search-groups"]']);
    await snap(page, 'browse-search-groups-desktop');
    await groups.getByRole('link', { name: new RegExp(album) }).click();
    await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible();
  });

  test('the album page on a phone and in Hebrew', async ({ page }) => {
    // Axe in Hebrew and two more pages: more than the default minute on a loaded machine.
    test.setTimeout(150_000);
    await signInThroughUi(page, user);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/albums');
    await page.getByRole('searchbox', { name: 'Search albums' }).fill(album);
    await page.getByRole('link', { name: album }).click();
    await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add to Playlist' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, 'browse-album-phone', { fullPage: true });
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { name: 'דיסק 1' })).toBeVisible();
    // The page's own content (the app shell's search placeholder colour is not this page's).
    await expectNoSeriousA11yViolations(page, ['main']);
    await expectNoSidewaysScroll(page);
    await snap(page, 'browse-album-phone-he', { fullPage: true });
    // A search's artists and albums on a phone, in Hebrew.
    await page.goto('/music');
    await page.getByRole('searchbox', { name: 'חיפוש שירים' }).fill(word);
    await expect(page.getByTestId('search-groups').getByRole('link', { name: artist, exact: true })).toBeVisible();
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, 'browse-search-groups-phone-he', { fullPage: true });
    await page.goto('/artists');
    await expect(page.getByRole('heading', { level: 1, name: 'אמנים' })).toBeVisible();
    await snap(page, 'browse-artists-phone-he');
    await page.evaluate(() => localStorage.setItem('language', 'en'));
  });
});
