import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiToken, makePicture, makeSong, makeTone } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * Music folders in a real browser (issue 27): songs dropped into the e2e server's music folder
 * (E2E_MUSIC_DIR, watched) show on All Music with the folder's bar, play from the folder with
 * their cover and the lyrics of the .lrc beside them, can be liked, and a .m3u8 there becomes a
 * playlist of the instance's owner. The owner is whoever signed up first in this run, so the
 * owner-only parts follow what GET /api/music-folders says (canScan). Every file is taken out
 * again at the end, so later specs see the folder empty, as before.
 */

type User = ReturnType<typeof uniqueUser>;

const musicDir = process.env['E2E_MUSIC_DIR'] ?? '';
/** A run-unique word in every title and folder name, so a search matches only this spec's songs. */
const run = `mf${Date.now().toString(36).slice(-5)}`;
/** This spec's part of the music folder; everything it adds lives under it. */
const ourTree = path.join(musicDir, `Encore e2e ${run}`);

const mp3 = { title: `Cellar Tune ${run}`, artist: 'Folder Band', file: 'Mp3 Album/01 Cellar Tune.mp3' };
const flac = { title: `Attic Hymn ${run}`, artist: 'Folder Band', file: 'Flac Album/02 Attic Hymn.flac' };
const ogg = { title: `Porch Song ${run}`, artist: 'Folder Band', file: 'Loose/Porch Song.ogg' };
const songs = [mp3, flac, ogg];
const playlistName = `Folder Mix ${run}`;

/** displayName is "Artist - Title"; cards and like buttons are named after it. */
function shownName(song: { title: string; artist: string }): string {
  return `${song.artist} - ${song.title}`;
}

const journey: { user?: User; isOwner?: boolean; songsBefore?: number; problemsBefore?: number } = {};

function songCards(page: Page): Locator {
  return page.locator('#music-list').getByRole('article');
}

function card(page: Page, name: string): Locator {
  return songCards(page).filter({ has: page.getByRole('button', { name: `Like ${name}`, exact: true }) });
}

function foldersBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Music folders' });
}

/** All Music, searched for this run's word. */
async function searchAllMusic(page: Page): Promise<void> {
  await page.goto('/music');
  await expect(page.getByRole('heading', { level: 1, name: 'Music Collection' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search songs' }).fill(run);
}

/**
 * Waits until All Music lists exactly `expected` of this run's songs. The page asks for the
 * folders' status only once a minute while nothing runs, so a change the watcher picked up is
 * looked for as a user would: by opening the page again.
 */
async function expectAllMusicLists(page: Page, expected: readonly { title: string; artist: string }[]): Promise<void> {
  await expect(async () => {
    await searchAllMusic(page);
    if (expected.length === 0) {
      await expect(page.getByRole('heading', { name: 'No Results Found' })).toBeVisible({ timeout: 3_000 });
      return;
    }
    for (const song of expected) await expect(card(page, shownName(song))).toBeVisible({ timeout: 3_000 });
    await expect(songCards(page)).toHaveCount(expected.length, { timeout: 1_000 });
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] });
}

async function foldersStatus(request: APIRequestContext, token: string) {
  const response = await request.get('/api/music-folders', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as {
    folders: { path: string; songs: number }[];
    canScan: boolean;
    problemCount: number;
    scan: { state: string; finishedAt: string | null };
  };
}

/** The position of the app's one audio element, in seconds. */
function audioTime(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? -1);
}

/** Builds this spec's folders in a staging folder beside the music folder, then moves them in at once. */
async function putSongsInTheFolder(): Promise<void> {
  const staging = await mkdtemp(path.join(path.dirname(musicDir), 'encore-e2e-staging-'));
  const tree = path.join(staging, 'tree');
  for (const song of songs) await mkdir(path.dirname(path.join(tree, song.file)), { recursive: true });
  // An MP3 with its cover inside; a FLAC with cover.jpg and its lyrics beside it; a bare Ogg.
  const made = await makeSong(path.dirname(path.join(tree, mp3.file)), { ...mp3, seconds: 6, cover: 'red', frequency: 330 });
  await rename(made, path.join(tree, mp3.file));
  await makeTone(path.join(tree, flac.file), flac, 8, 440);
  await makePicture(path.join(tree, 'Flac Album', 'cover.jpg'), 'orange');
  await writeFile(path.join(tree, 'Flac Album', '02 Attic Hymn.lrc'), '[00:00.50]Up the attic stairs\n[00:02.00]Dust and moonlight\n');
  await makeTone(path.join(tree, ogg.file), ogg, 6, 550);
  // Same file system (both under the temporary folder): the watcher sees one folder arrive whole.
  await rename(tree, ourTree);
  await rm(staging, { recursive: true, force: true });
}

test.describe('music folders in a real browser', () => {
  test.beforeAll(() => {
    // playwright.config.ts gives the server its music folder: without it the journey cannot run, and must not pass.
    expect(musicDir, 'E2E_MUSIC_DIR is set by playwright.config.ts').toBeTruthy();
  });

  test.afterAll(async ({ browser, request }, testInfo) => {
    testInfo.setTimeout(120_000);
    // The files first, the folders once their songs are gone: a scoped scan of a folder that no
    // longer exists puts "It disappeared while the scan ran." in the scan report (a server bug,
    // reported with this spec), and only the owner's full scan clears that.
    const added = [...songs.map((song) => song.file), 'Flac Album/cover.jpg', 'Flac Album/02 Attic Hymn.lrc', `${playlistName}.m3u8`];
    for (const file of added) await rm(path.join(ourTree, file), { force: true });
    if (!journey.user) {
      await rm(ourTree, { recursive: true, force: true });
      return;
    }
    // Later specs see the library as before: this run's songs are gone from All Music.
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInThroughUi(page, journey.user);
      await expectAllMusicLists(page, []);
      const token = await apiToken(request, journey.user);
      await expect.poll(async () => (await foldersStatus(request, token)).folders[0]?.songs).toBe(journey.songsBefore);
      // Taking files out is not a problem of the scan.
      expect((await foldersStatus(request, token)).problemCount).toBe(journey.problemsBefore);
      await snap(page, 'music-folders-emptied');
      await rm(ourTree, { recursive: true, force: true });
      if (journey.isOwner) {
        const lastScan = (await foldersStatus(request, token)).scan.finishedAt;
        await expect.poll(async () => (await foldersStatus(request, token)).scan.finishedAt, { message: 'the watcher saw the folders go' }).not.toBe(lastScan);
        await page.goto('/music');
        await foldersBar(page).getByRole('button', { name: 'Scan now' }).click();
        await expect
          .poll(async () => (await foldersStatus(request, token)).problemCount, { message: 'a full scan leaves a clean report' })
          .toBe(journey.problemsBefore);
      }
    } finally {
      await context.close();
    }
  });

  test('songs put into the music folder show, play with their cover and lyrics, are liked, and a .m3u8 becomes a playlist', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(180_000);
    const user = uniqueUser('folders');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const before = await foldersStatus(request, token);
    const songsBefore = before.folders[0]?.songs ?? 0;
    // Whoever signed up first in this run owns the instance; this user may or may not be it.
    const isOwner = before.canScan;
    // Where the folder is on the server is for the owner; others see its name, as Subsonic apps do.
    expect(before.folders.map((folder) => folder.path)).toEqual([isOwner ? musicDir : path.basename(musicDir)]);
    Object.assign(journey, { isOwner, songsBefore, problemsBefore: before.problemCount });

    await signInThroughUi(page, user);
    await page.goto('/music');
    await expect(foldersBar(page)).toContainText(`Music folders: ${songsBefore} song`);
    await expect(foldersBar(page).getByRole('button', { name: 'Scan now' })).toHaveCount(isOwner ? 1 : 0);

    journey.user = user;
    await putSongsInTheFolder();
    // The watcher lists them within seconds, with the titles from their tags.
    await expectAllMusicLists(page, songs);
    // The status the page asked for on opening may predate the watcher's scan (the song search
    // answers later, after its debounce): opened again, it counts them.
    await expect(async () => {
      await page.reload();
      await expect(foldersBar(page)).toContainText(`Music folders: ${songsBefore + songs.length} songs`, { timeout: 3_000 });
    }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
    await expect(foldersBar(page)).toContainText(/last scanned (just now|\d+ seconds? ago)/);
    await searchAllMusic(page);
    // The MP3's embedded cover shows on its card; the bare Ogg has none.
    const mp3Cover = card(page, shownName(mp3)).locator('img');
    await expect.poll(() => mp3Cover.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBeGreaterThan(0);
    await expect(card(page, shownName(ogg)).locator('img')).toHaveCount(0);
    await snap(page, 'music-folders-all-music');

    // The FLAC's page: cover.jpg beside it is its cover, the .lrc its lyrics, and it plays from the folder.
    await card(page, shownName(flac)).getByRole('link', { name: flac.title, exact: true }).click();
    await expect(page).toHaveURL(/\/music\/\d+$/);
    const songUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: flac.title, exact: true })).toBeVisible();
    const cover = page.locator('article').first().locator('img').first();
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBeGreaterThan(0);
    const lyrics = page.getByTestId('lyrics-panel');
    await expect(lyrics.getByText('Up the attic stairs')).toBeVisible();
    await expect(lyrics.getByText('Dust and moonlight')).toBeVisible();
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await expect(page.getByRole('button', { name: 'Pause', exact: true }).first()).toBeVisible();
    await expect.poll(() => audioTime(page), { timeout: 15_000, message: 'the folder song plays' }).toBeGreaterThan(1);
    // A folder song belongs to the instance: nobody deletes it from Encore.
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    await snap(page, 'music-folders-song');

    // Liked, it is among Favorites.
    const like = page.getByRole('button', { name: `Like ${shownName(flac)}` });
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
    await page.goto('/music?owner=true&favorites=true');
    await expect(page.getByRole('heading', { level: 1, name: 'My Favorites' })).toBeVisible();
    await expect(card(page, shownName(flac))).toBeVisible();
    await expect(card(page, shownName(mp3))).toHaveCount(0);

    // Someone who is surely not the owner (this user signed up before them) sees the songs, but no Scan now, and may not scan.
    const other = uniqueUser('notowner');
    await signUpViaApi(request, other);
    const otherToken = await apiToken(request, other);
    expect((await foldersStatus(request, otherToken)).canScan).toBe(false);
    const refused = await request.post('/api/music-folders/scan', { headers: { authorization: `Bearer ${otherToken}` } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe('Only an admin can start a scan.');
    const otherContext = await browser.newContext();
    try {
      const otherPage = await otherContext.newPage();
      await signInThroughUi(otherPage, other);
      await expectAllMusicLists(otherPage, songs);
      await expect(foldersBar(otherPage)).toContainText(`Music folders: ${songsBefore + songs.length} songs`);
      await expect(foldersBar(otherPage).getByRole('button', { name: 'Scan now' })).toHaveCount(0);
      await otherPage.goto(songUrl);
      await expect(otherPage.getByRole('heading', { level: 1, name: flac.title, exact: true })).toBeVisible();
    } finally {
      await otherContext.close();
    }

    // A .m3u8 naming two of the songs by relative path becomes a playlist of the owner.
    const lastScan = (await foldersStatus(request, token)).scan.finishedAt;
    await writeFile(path.join(ourTree, `${playlistName}.m3u8`), `#EXTM3U\n#EXTINF:6,${mp3.artist} - ${mp3.title}\n${mp3.file}\n${ogg.file}\n`);
    if (isOwner) {
      // The owner need not wait for the watcher: Scan now reads the whole folder.
      await page.goto('/music');
      await foldersBar(page).getByRole('button', { name: 'Scan now' }).click();
      await expect(page.getByText('Scan started')).toBeVisible();
      await expect(foldersBar(page)).toContainText(`Music folders: ${songsBefore + songs.length} songs`, { timeout: 30_000 });
      await expect(async () => {
        await page.goto('/playlists');
        await expect(page.getByRole('link', { name: playlistName })).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      const playlistCard = page.getByRole('article').filter({ has: page.getByRole('link', { name: playlistName }) });
      await expect(playlistCard).toContainText('2 songs');
      await page.getByRole('link', { name: playlistName }).click();
      await expect(page.getByRole('heading', { level: 1, name: playlistName })).toBeVisible();
      // In the file's order, the FLAC it does not name left out.
      const rows = page.getByTestId('playlist-song');
      await expect.poll(() => rows.evaluateAll((items) => items.map((item) => item.querySelector('a')?.textContent ?? ''))).toEqual([mp3.title, ogg.title]);
      await snap(page, 'music-folders-playlist');
    } else {
      // The playlist is the owner's, not this user's: it does not show among theirs.
      const scanned = async () => {
        const { scan } = await foldersStatus(request, token);
        return scan.state === 'done' && scan.finishedAt !== lastScan;
      };
      await expect.poll(scanned, { timeout: 30_000, message: 'the watcher scanned the playlist' }).toBe(true);
      await page.goto('/playlists');
      await expect(page.getByRole('link', { name: playlistName })).toHaveCount(0);
    }
    // Every entry matched a song: nothing in the scan report about it.
    const after = await foldersStatus(request, token);
    expect(after.folders[0]?.songs).toBe(songsBefore + songs.length);
  });
});
