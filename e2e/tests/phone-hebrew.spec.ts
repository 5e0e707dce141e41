import { expect, test, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * An outside walkthrough at 390 px and in Hebrew (issue 37): the player bar's Shuffle, Repeat and
 * settings are one tap away under More on a phone; a number with a unit ("+7.7 dB") reads left to
 * right inside a Hebrew sentence; the Song2Clip page is as wide as the other pages.
 */

const run = Date.now().toString(36).slice(-5);
const PHONE = { width: 390, height: 844 };

/** Where the h1 of `path` starts and ends across the window: the page's width and margins. */
async function headingSpan(page: Page, path: string): Promise<{ left: number; right: number }> {
  await page.goto(path);
  const heading = page.getByRole('heading', { level: 1 }).first();
  await expect(heading).toBeVisible();
  // The h1's container, the page's column: its box, not the heading text's.
  return heading.evaluate((element) => {
    let box: Element = element;
    while (box.parentElement && !box.parentElement.matches('main')) box = box.parentElement;
    const style = getComputedStyle(box);
    const rect = box.getBoundingClientRect();
    return { left: Math.round(rect.left + parseFloat(style.paddingLeft)), right: Math.round(rect.right - parseFloat(style.paddingRight)) };
  });
}

test.describe('a phone in Hebrew', () => {
  test('More holds Shuffle, Repeat and the player settings, whose gain reads "+7.7 dB" in a Hebrew line', async ({ browser, request }) => {
    test.setTimeout(180_000);
    const user = uniqueUser('heb');
    await signUpViaApi(request, user);
    const token = await apiToken(request, user);
    const dir = await fixtureDir();
    for (const title of [`Shir ${run} A`, `Shir ${run} B`]) await uploadViaApi(request, token, await makeSong(dir, { title, artist: 'Zamar', seconds: 8 }));
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signInThroughUi(page, user);
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.goto('/music?owner=true');
    await page.getByRole('button', { name: new RegExp(`^ניגון .*Shir ${run} A$`) }).click();
    const bar = page.getByRole('region', { name: 'נגן' });
    await expect(bar.getByRole('button', { name: 'השהיה' })).toBeEnabled({ timeout: 15_000 });

    // Below 640 px the bar has no room for them: they are under More, with their names.
    await expect(bar.getByRole('button', { name: 'ערבוב' })).toBeHidden();
    await expect(bar.getByRole('button', { name: 'הגדרות הנגן' })).toBeHidden();
    await bar.getByRole('button', { name: 'עוד' }).click();
    const more = page.getByRole('dialog', { name: 'עוד' });
    const shuffle = more.getByRole('button', { name: 'ערבוב' });
    await shuffle.click();
    await expect(shuffle).toHaveAttribute('aria-pressed', 'true');
    // Repeat goes round off → all → this song (where it starts is the player store's business).
    const repeat = more.getByRole('button', { name: /^חזרה: / });
    const before = await repeat.getAttribute('aria-label');
    await repeat.click();
    await expect(repeat).not.toHaveAttribute('aria-label', before ?? '');
    await expect(more.getByRole('heading', { name: 'הגדרות הנגן' })).toBeVisible();
    await more.getByRole('button', { name: 'שיר', exact: true }).click();

    // The gain line: a Hebrew sentence with a number and its unit, isolated left to right.
    const gain = more.getByTestId('player-gain');
    await expect(gain).toHaveText(/^השיר הזה: \u2066[+-]?\d+(\.\d+)? dB\u2069$/);
    // As drawn: the Hebrew words on the right, then the number, then its unit, left to right.
    const drawn = await gain.evaluate((element) => {
      const node = element.firstChild as Text;
      const left = (index: number) => {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        return range.getBoundingClientRect().left;
      };
      return { number: left(node.data.search(/\d/)), unit: left(node.data.indexOf('dB')), words: left(node.data.indexOf('ה')) };
    });
    expect(drawn.number).toBeLessThan(drawn.unit);
    expect(drawn.unit).toBeLessThan(drawn.words);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await snap(page, 'phone-player-more-he', { fullPage: false });
    await page.keyboard.press('Escape');

    // Song2Clip keeps the width and margins of every other page, on a phone and on a wide screen.
    for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
      await page.setViewportSize(viewport);
      const music = await headingSpan(page, '/music');
      const clips = await headingSpan(page, '/song2clip');
      expect(clips, `at ${viewport.width} px`).toEqual(music);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    }
    await page.setViewportSize(PHONE);
    await snap(page, 'phone-song2clip-he');
    await context.close();
  });
});
