import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi, type SongFixture } from './media.js';
import { signInThroughUi, signUpThroughUi, snap, uniqueUser } from './support.js';

/**
 * Import M3U8 in a real browser, on the real server: a playlist exported as M3U8 and imported
 * into another playlist gives the same songs in the same order; a hand-written M3U finds a song
 * by its file name under a Windows path and reports the entry it cannot find.
 */

/** A run-unique word in every title and name, so nothing another test made gets in the way. */
const run = Date.now().toString(36).slice(-5);

const fixtures: SongFixture[] = [
  { title: `Delta ${run}`, artist: 'Import Band', seconds: 3, frequency: 300 },
  { title: `Echo ${run}`, artist: 'Import Band', seconds: 3, frequency: 400 },
  { title: `Foxtrot ${run}`, artist: 'Import Band', seconds: 3, frequency: 500 },
];
const [delta, echo, foxtrot] = fixtures.map((fixture) => fixture.title) as [string, string, string];

function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

async function rowNames(page: Page): Promise<string[]> {
  return page.getByTestId('playlist-song').evaluateAll((items) => items.map((item) => item.querySelector('a')?.textContent ?? ''));
}

async function createPlaylist(request: APIRequestContext, token: string, name: string, songIds: number[]): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/playlists', { headers, data: { name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  for (const songId of songIds) expect((await request.post(`/api/playlists/${id}/songs`, { headers, data: { SongId: songId } })).ok()).toBe(true);
  return id;
}

/** Opens the file picker the way a keyboard user does (focus, Enter) and gives it `file`. */
async function importThroughPicker(page: Page, file: string): Promise<void> {
  const button = page.getByRole('button', { name: 'Import M3U8' });
  await button.focus();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await chooser.setFiles(file);
}

test.describe('Import M3U8 in a real browser', () => {
  test('export a playlist, import the file into another, and import a hand-written M3U', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('m3uimport');
    await signUpThroughUi(page, user);
    await signInThroughUi(page, user);
    const dir = await fixtureDir();
    const token = await apiToken(request, user);
    const files: string[] = [];
    const ids: number[] = [];
    for (const fixture of fixtures) {
      const file = await makeSong(dir, fixture);
      files.push(file);
      ids.push(await uploadViaApi(request, token, file));
    }

    // Export a playlist of Foxtrot then Delta.
    const source = await createPlaylist(request, token, `Source ${run}`, [ids[2]!, ids[0]!]);
    await page.goto(`/playlists/${source}`);
    await expect(page.getByRole('heading', { level: 1, name: `Source ${run}` })).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export M3U8' }).click()]);
    const exported = path.join(dir, 'exported.m3u8');
    await download.saveAs(exported);

    // Import it into an empty playlist: the same songs, in the same order.
    const target = await createPlaylist(request, token, `Target ${run}`, []);
    await page.goto(`/playlists/${target}`);
    await expect(page.getByRole('heading', { level: 1, name: `Target ${run}` })).toBeVisible();
    await importThroughPicker(page, exported);
    await expect(toast(page, 'Added 2 songs')).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([foxtrot, delta]);
    await snap(page, 'playlist-imported');

    // A hand-written M3U: Echo by its file name under a Windows path, Delta already there, one entry unknown.
    const handWritten = path.join(dir, 'hand-written.m3u');
    const echoFile = path.basename(files[1]!);
    await writeFile(
      handWritten,
      [
        '#EXTM3U',
        `C:\\Users\\me\\Music\\${echoFile.toUpperCase()}`,
        `#EXTINF:3,Import Band - ${delta}`,
        'D:\\Music\\delta.mp3',
        'nowhere/unknown.mp3',
        '',
      ].join('\r\n'),
    );
    await importThroughPicker(page, handWritten);
    await expect(toast(page, 'Added 1 song · 1 already in the playlist · 1 not found')).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([foxtrot, delta, echo]);

    // Still so after a reload: it was saved.
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual([foxtrot, delta, echo]);
  });
});
