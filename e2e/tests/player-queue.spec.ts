import { expect, test, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { expectNoSeriousA11yViolations } from './accessibility.js';
import { playing } from './player-audio.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * The play queue as data (issue 30): Play next and Add to queue from the song menus, reorder
 * with the keyboard, remove; it is saved to the server, survives a reload and appears in a
 * second browser of the same user. A play is counted and listed in Recently played.
 */

function playerBar(page: Page) {
  return page.getByRole('region', { name: 'Player' });
}

function queueRows(page: Page) {
  return page.getByRole('dialog', { name: 'Play queue' }).getByTestId('queue-row');
}

async function queueTitles(page: Page): Promise<string[]> {
  return queueRows(page).evaluateAll((rows) => rows.map((row) => row.querySelector('button[aria-label^="Play "]')?.getAttribute('aria-label')?.slice(5) ?? ''));
}

async function openQueue(page: Page): Promise<void> {
  await playerBar(page).getByRole('button', { name: 'Queue' }).click();
  await expect(page.getByRole('dialog', { name: 'Play queue' })).toBeVisible();
}

test.describe('play queue', () => {
  test('edits the queue, which survives a reload and follows the user to another browser', async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    const user = uniqueUser('queue');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const names = ['Queue Alpha', 'Queue Bravo', 'Queue Charlie'];
    for (const [index, title] of names.entries()) {
      await uploadViaApi(request, token, await makeSong(dir, { title, artist: 'Queue Band', seconds: 30, frequency: 330 + index * 110 }));
    }

    await signInThroughUi(page, user);
    await page.goto('/music?owner=true');
    const card = (title: string) => page.getByRole('article').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    // Newest first: Charlie, Bravo, Alpha. Play Alpha alone, then queue the others.
    await card('Queue Alpha').getByRole('button', { name: /^Play/ }).click();
    await expect.poll(async () => (await playing(page)).time, { timeout: 20_000 }).toBeGreaterThan(0.5);

    await card('Queue Charlie').getByRole('button', { name: 'Queue options for Queue Band - Queue Charlie' }).click();
    await page.getByRole('menuitem', { name: 'Add to queue' }).click();
    await card('Queue Bravo').getByRole('button', { name: 'Queue options for Queue Band - Queue Bravo' }).click();
    await page.getByRole('menuitem', { name: 'Play next' }).click();

    await openQueue(page);
    // The music list's own order was Charlie, Bravo, Alpha: a queue edit keeps that list and adds to it.
    const before = await queueTitles(page);
    expect(before.slice(-1)).toEqual(['Queue Band - Queue Charlie']);
    const alphaAt = before.indexOf('Queue Band - Queue Alpha');
    expect(before[alphaAt + 1]).toBe('Queue Band - Queue Bravo');
    await expect(page.getByText(/^Plays next:/)).toBeHidden({ timeout: 10_000 });
    await snap(page, 'player-queue', { fullPage: false });
    await expectNoSeriousA11yViolations(page, ['[role="dialog"]']);

    // Keyboard: the handle's ArrowUp moves the last song up one place.
    const lastHandle = page.getByRole('button', { name: 'Reorder Queue Band - Queue Charlie' }).last();
    await lastHandle.focus();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('status').filter({ hasText: 'Queue Band - Queue Charlie moved to position' })).toBeVisible();
    const moved = await queueTitles(page);
    expect(moved.at(-2)).toBe('Queue Band - Queue Charlie');
    // Remove the first song of the list (not the one playing, unless it is).
    const removeFirst = queueRows(page)
      .first()
      .getByRole('button', { name: /^Remove .* from the queue$/ });
    await removeFirst.click();
    const expected = await queueTitles(page);
    expect(expected.length).toBe(moved.length - 1);

    // Saved to the server (debounced): the same order there.
    await expect
      .poll(
        async () => {
          const saved = (await (await request.get('/api/player/queue', { headers: { authorization: `Bearer ${token}` } })).json()) as { songIds: number[] };
          return saved.songIds.length;
        },
        { timeout: 10_000 },
      )
      .toBe(expected.length);
    await page.keyboard.press('Escape');

    // The bar and its settings: reachable by keyboard, nothing serious for axe.
    await expectNoSeriousA11yViolations(page, ['[role="region"][aria-label="Player"]']);
    await snap(page, 'player-bar', { fullPage: false });
    const settings = playerBar(page).getByRole('button', { name: 'Player settings' });
    await settings.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Player settings' });
    await expect(menu.getByRole('button', { name: 'Track', pressed: true })).toBeVisible();
    await menu.getByRole('button', { name: 'Album' }).click();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('encore.player.settings') ?? '{}').mode)).toBe('album');
    await snap(page, 'player-settings', { fullPage: false });
    await expectNoSeriousA11yViolations(page, ['[role="dialog"]']);
    await page.keyboard.press('Escape');

    // A reload: the queue is restored, paused, on the same song.
    const current = (await playing(page)).title;
    await page.reload();
    await expect(playerBar(page)).toBeVisible({ timeout: 15_000 });
    await expect(playerBar(page).getByTestId('player-title')).toHaveAttribute('aria-label', current);
    await openQueue(page);
    await expect.poll(() => queueTitles(page)).toEqual(expected);
    await page.keyboard.press('Escape');

    // Another browser of the same user: the same queue.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInThroughUi(otherPage, user);
    await otherPage.goto('/music');
    await expect(playerBar(otherPage)).toBeVisible({ timeout: 15_000 });
    await openQueue(otherPage);
    await expect.poll(() => queueTitles(otherPage)).toEqual(expected);
    await other.close();
  });

  test('a play counts after half the song and shows in Recently played', async ({ page, request }) => {
    test.setTimeout(90_000);
    const user = uniqueUser('plays');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    const id = await uploadViaApi(request, token, await makeSong(dir, { title: 'Counted Song', artist: 'Plays', seconds: 6 }));

    await signInThroughUi(page, user);
    await page.goto('/music');
    await expect(page.getByRole('heading', { name: 'Recently played' })).toHaveCount(0);
    await page.goto(`/music/${id}`);
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    const playCount = async () =>
      ((await (await request.get(`/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { playCount: number }).playCount;
    await expect.poll(playCount, { timeout: 20_000, message: 'the play is counted after 3 s of the 6 s song' }).toBe(1);

    await page.goto('/music');
    const recent = page.getByRole('region', { name: 'Recently played' });
    await expect(recent.getByRole('link', { name: 'Counted Song' })).toBeVisible();
    await snap(page, 'music-recently-played');
  });
});
