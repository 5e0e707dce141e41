import { expect, test, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, uniqueUser } from './support.js';

const songTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? 0);

/**
 * Long songs resume (issue 41) in a real browser: an 11-minute song with a bookmark at 5:00
 * (saved as a Subsonic app or another device would) starts there, says so, and Start over goes
 * back to the beginning; the pause then moves the bookmark there.
 */
test('a long song resumes at its bookmark, and Start over goes back to the beginning', async ({ page, request }) => {
  test.setTimeout(180_000);
  const user = uniqueUser('book');
  await signUpViaApi(request, user);
  const token = await apiToken(request, user);
  const title = `Audiobook ${Date.now().toString(36).slice(-5)}`;
  const id = await uploadViaApi(request, token, await makeSong(await fixtureDir(), { title, artist: 'Narrator', seconds: 660 }));
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.put(`/api/bookmarks/${id}`, { headers, data: { positionMs: 300_000 } })).ok()).toBe(true);

  await signInThroughUi(page, user);
  await page.goto('/music?owner=true');
  await page.getByRole('button', { name: new RegExp(`^Play .*${title}$`) }).click();
  await expect(page.getByText('Resumed at 5:00, where you stopped')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => songTime(page), { timeout: 20_000 }).toBeGreaterThan(300);

  await page.getByRole('button', { name: 'Start over' }).click();
  await expect.poll(() => songTime(page)).toBeLessThan(30);
  const bar = page.getByRole('region', { name: 'Player' });
  await bar.getByRole('button', { name: 'Pause' }).click();
  const bookmark = async () =>
    ((await (await request.get(`/api/bookmarks/${id}`, { headers })).json()) as { bookmark: { positionMs: number } | null }).bookmark?.positionMs ?? null;
  await expect.poll(bookmark, { timeout: 10_000 }).toBeLessThan(30_000);
});
