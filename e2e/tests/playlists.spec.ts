import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi, type SongFixture } from './media.js';
import { signInThroughUi, signUpThroughUi, snap, uniqueUser } from './support.js';

/**
 * Playlists in a real browser, on the real server: create one, add songs from a song page and
 * from the Add Song selector, reorder by dragging and by keyboard (saved, still so after a
 * reload), play it through the player bar, edit, remove a song, export and delete.
 */

/** A run-unique word in every title and name, so nothing another test made gets in the way. */
const run = Date.now().toString(36).slice(-5);

const fixtures: SongFixture[] = [
  { title: `Alpha ${run}`, artist: 'Road Band', seconds: 4, frequency: 330, cover: 'purple' },
  { title: `Bravo ${run}`, artist: 'Road Band', seconds: 4, frequency: 440 },
  { title: `Charlie ${run}`, artist: 'Road Band', seconds: 4, frequency: 550, cover: 'teal' },
];
/** displayName is "Artist - Title" when both tags are present: labels, the selector and the player bar say it. */
const [alpha, bravo, charlie] = fixtures.map((fixture) => `${fixture.artist} - ${fixture.title}`) as [string, string, string];
/** A row shows the title, with the artist under it. */
const [alphaRow, bravoRow, charlieRow] = fixtures.map((fixture) => fixture.title) as [string, string, string];

function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

function rows(page: Page): Locator {
  return page.getByTestId('playlist-song');
}

async function rowNames(page: Page): Promise<string[]> {
  return rows(page).evaluateAll((items) => items.map((item) => item.querySelector('a')?.textContent ?? ''));
}

function controls(page: Page): Locator {
  return page.getByRole('group', { name: 'Playlist playback' });
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Player' });
}

function audio(page: Page) {
  return page.evaluate(() => {
    const element = document.querySelector<HTMLAudioElement>('audio[data-encore-player]');
    return { time: element?.currentTime ?? -1, paused: element?.paused ?? true };
  });
}

/** From now on, the player element's play, playing and pause events are kept, in order. */
async function recordPlaybackEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const element = document.querySelector<HTMLAudioElement>('audio[data-encore-player]');
    const seen: string[] = [];
    (window as unknown as { encorePlaybackEvents: string[] }).encorePlaybackEvents = seen;
    for (const type of ['play', 'playing', 'pause']) element?.addEventListener(type, () => seen.push(type));
  });
}

function playbackEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { encorePlaybackEvents: string[] }).encorePlaybackEvents);
}

async function expectAudioAdvancing(page: Page): Promise<void> {
  // Two readings a little apart, taken afresh each poll: a reading taken just before the bar
  // moved to the next song (its end, then 0 again) must not make the clock look stopped.
  const advance = async () => {
    const before = (await audio(page)).time;
    await new Promise((resolve) => setTimeout(resolve, 400));
    return (await audio(page)).time - before;
  };
  await expect.poll(advance, { timeout: 10_000, message: 'the audio position advances' }).toBeGreaterThan(0.2);
}

/** Drags a row by its handle onto the row at `targetIndex`, the way a mouse does it. */
async function dragRow(page: Page, name: string, targetIndex: number): Promise<void> {
  const handle = page.getByRole('button', { name: `Move ${name}` });
  await rows(page).last().scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  const to = (await rows(page).nth(targetIndex).boundingBox())!;
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + (to.y > from.y ? 8 : -8), { steps: 4 }); // past the 4 px that start a drag
  await page.mouse.move(x, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
}

test.describe('playlists in a real browser', () => {
  test('create, fill from two places, reorder, play through, edit, remove, export and delete', async ({ page, request }) => {
    test.setTimeout(150_000);
    const user = uniqueUser('playlists');
    await signUpThroughUi(page, user);
    await signInThroughUi(page, user);
    const dir = await fixtureDir();
    const token = await apiToken(request, user);
    const ids: number[] = [];
    for (const fixture of fixtures) ids.push(await uploadViaApi(request, token, await makeSong(dir, fixture)));

    // My Playlists, empty at first.
    await page.getByRole('button', { name: 'Library' }).click();
    await page
      .getByRole('navigation', { name: 'Library' })
      .getByRole('link', { name: /Playlists/ })
      .click();
    await expect(page).toHaveURL(/\/playlists$/);
    await expect(page.getByRole('heading', { name: 'No Playlists Yet' })).toBeVisible();
    await snap(page, 'playlists-empty');

    // Create one: a name is required.
    await page.getByRole('link', { name: 'Create Playlist' }).first().click();
    await expect(page).toHaveURL(/\/create-playlist$/);
    await page.getByRole('button', { name: 'Create Playlist' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please enter a playlist name' })).toBeVisible();
    const name = `Road Trip ${run}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel(/Description/).fill('Songs for the long drive');
    await snap(page, 'playlist-create');
    await page.getByRole('button', { name: 'Create Playlist' }).click();
    await expect(toast(page, 'Playlist created successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/playlists$/);
    const card = page.getByRole('article').filter({ has: page.getByRole('link', { name }) });
    await expect(card).toContainText('Songs for the long drive');
    await expect(card).toContainText('0 songs');

    // Search matches the description, ignoring case; nothing matching offers Clear Search.
    const search = page.getByRole('searchbox', { name: 'Search playlists' });
    await search.fill('LONG DRIVE');
    await expect(card).toBeVisible();
    await search.fill('no such playlist');
    await expect(page.getByRole('heading', { name: 'No Matching Playlists' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(card).toBeVisible();
    await snap(page, 'playlists');

    // The first song from its song page, with Add to Playlist.
    await page.goto(`/music/${ids[0]}`);
    await page.getByRole('button', { name: 'Add to Playlist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Playlist' });
    await expect(dialog.getByRole('button', { name: `Add to ${name}` })).toBeVisible();
    await snap(page, 'song-add-to-playlist');
    await dialog.getByRole('button', { name: `Add to ${name}` }).click();
    await expect(toast(page, 'Song added to playlist')).toBeVisible();
    await expect(dialog).toBeHidden();
    // Opened again, it knows the song is in there.
    await page.getByRole('button', { name: 'Add to Playlist' }).click();
    await expect(dialog.getByRole('button', { name: `${name} · Added` })).toBeDisabled();
    await page.keyboard.press('Escape');

    // The other two from the playlist's own Add Song selector.
    await page.goto('/playlists');
    await page.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/playlists/\\d+$`));
    const playlistUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([alphaRow]);
    const select = page.getByLabel('Add a song');
    await page.getByRole('button', { name: 'Add Song' }).click();
    await expect(toast(page, 'Please select a song to add')).toBeVisible();
    // The selector offers the first 50 songs by title; in a library other journeys filled, the
    // search beside it finds these, as it would for a listener with thousands of songs.
    await page.getByRole('searchbox', { name: 'Search songs' }).fill(run);
    await expect(select.locator('option', { hasText: bravo })).toHaveCount(1);
    for (const song of [bravo, charlie]) {
      await select.selectOption({ label: song });
      await page.getByRole('button', { name: 'Add Song' }).click();
      await expect(rows(page).filter({ has: page.getByRole('button', { name: `Move ${song}` }) })).toBeVisible();
    }
    await expect.poll(() => rowNames(page)).toEqual([alphaRow, bravoRow, charlieRow]);
    await expect(page.getByText('3 songs', { exact: true })).toBeVisible();
    await expect(select.locator('option', { hasText: `${alpha} (already added)` })).toBeDisabled();
    await snap(page, 'playlist-detail');

    // Reorder: drag Charlie to the top, then move Alpha down a place with the keyboard.
    const saved = () => page.waitForResponse((response) => response.request().method() === 'PUT' && /\/api\/playlists\/\d+\/songs$/.test(response.url()));
    let save = saved();
    await dragRow(page, charlie, 0);
    expect((await save).status()).toBe(200);
    await expect.poll(() => rowNames(page)).toEqual([charlieRow, alphaRow, bravoRow]);
    save = saved();
    await page.getByRole('button', { name: `Move ${alpha}` }).focus();
    await page.keyboard.press('ArrowDown');
    expect((await save).status()).toBe(200);
    await expect.poll(() => rowNames(page)).toEqual([charlieRow, bravoRow, alphaRow]);
    await expect(page.getByRole('button', { name: `Move ${alpha}` })).toBeFocused();
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual([charlieRow, bravoRow, alphaRow]);
    // The same page on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'playlist-detail-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Play All: the player bar plays the playlist in order and moves on to the next song.
    const button = (label: string) => controls(page).getByRole('button', { name: label });
    await expect(button('Pause')).toBeDisabled();
    await expect(button('Resume')).toBeDisabled();
    await expect(button('Stop')).toBeDisabled();
    await button('Play All').click();
    await expect(toast(page, 'Playing 3 songs')).toBeVisible();
    await expect(playerBar(page).getByRole('link', { name: charlie })).toBeVisible();
    await expectAudioAdvancing(page);
    await expect(button('Pause')).toBeEnabled();
    await expect(button('Resume')).toBeDisabled();
    await snap(page, 'playlist-playing');
    await expect(playerBar(page).getByRole('link', { name: bravo })).toBeVisible({ timeout: 10_000 });
    await expectAudioAdvancing(page);
    await expect(rows(page).nth(1)).toContainText('Now playing');

    // No fixed sleep: the element's own play/pause events say whether anything restarted it.
    await recordPlaybackEvents(page);
    await button('Pause').click();
    await expect(toast(page, 'Playback paused')).toBeVisible();
    await expect.poll(async () => (await audio(page)).paused).toBe(true);
    const pausedAt = (await audio(page)).time;
    await expect(button('Resume')).toBeEnabled();
    await expect(button('Pause')).toBeDisabled();
    expect(await playbackEvents(page)).toEqual(['pause']);
    expect((await audio(page)).time).toBeCloseTo(pausedAt, 2);

    await button('Resume').click();
    await expect(toast(page, 'Playback resumed')).toBeVisible();
    await expectAudioAdvancing(page);

    await button('Stop').click();
    await expect(toast(page, 'Playback stopped')).toBeVisible();
    await expect(playerBar(page)).toBeHidden();
    await expect(button('Stop')).toBeDisabled();

    // Edit, then Cancel: the original values come back.
    await page.getByRole('button', { name: 'Edit Playlist' }).click();
    await page.getByLabel('Name').fill('Something else');
    await page.getByLabel(/Description/).fill('Not this');
    await snap(page, 'playlist-edit');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('Songs for the long drive')).toBeVisible();

    // Edit and Save.
    const renamed = `Road Trip Deluxe ${run}`;
    await page.getByRole('button', { name: 'Edit Playlist' }).click();
    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Please provide a valid name for the playlist')).toBeVisible();
    await page.getByLabel('Name').fill(renamed);
    await page.getByLabel(/Description/).fill('Now with more miles');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Playlist updated successfully')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(page.getByText('Now with more miles')).toBeVisible();

    // Remove a song through its row menu.
    await page.getByRole('button', { name: `More actions for ${bravo}` }).click();
    await page.getByRole('menuitem', { name: 'Remove from playlist' }).click();
    await expect(toast(page, 'Song removed from playlist')).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([charlieRow, alphaRow]);
    await expect(page.getByText('2 songs', { exact: true })).toBeVisible();

    // Played to the end, it says so.
    await button('Play All').click();
    await expect(toast(page, 'Playlist finished')).toBeVisible({ timeout: 20_000 });

    // Export as M3U8: signed links to both songs.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export M3U8' }).click()]);
    expect(download.suggestedFilename()).toBe(`${renamed}.m3u8`);
    const m3u8 = await readFile((await download.path())!, 'utf8');
    expect(m3u8.startsWith('#EXTM3U')).toBe(true);
    expect(m3u8).toContain(charlie);
    expect(m3u8).toContain(alpha);
    expect(m3u8).not.toContain(bravo);

    // Delete, after confirming.
    await page.getByRole('button', { name: 'Delete Playlist' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this playlist?' });
    await snap(page, 'playlist-delete');
    await confirm.getByRole('button', { name: 'Delete Playlist' }).click();
    await expect(toast(page, 'Playlist deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/playlists$/);
    await expect(page.getByRole('heading', { name: 'No Playlists Yet' })).toBeVisible();

    // Gone for good.
    await page.goto(playlistUrl);
    await expect(page.getByRole('heading', { name: 'Playlist Not Found' })).toBeVisible();
    await snap(page, 'playlist-not-found');
    await page.getByRole('link', { name: 'Back to Playlists' }).click();
    await expect(page).toHaveURL(/\/playlists$/);
  });
});
