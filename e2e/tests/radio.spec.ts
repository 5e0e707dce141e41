import { expect, test, type Page } from '@playwright/test';
import { ownEncoreUrl, startOwnEncore, type OwnEncore } from '../own-encore.js';
import { expectNoSeriousA11yViolations } from './accessibility.js';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { startRadioStation, type RadioStationServer } from './radio-station.js';
import { signInThroughUi, signUpThroughUi, snap, uniqueUser } from './support.js';

/** The radio journey's Encore (the shared server's port + 6): its first sign-up is the admin who adds stations. */
const RADIO_URL = ownEncoreUrl(6);
const PHONE = { width: 390, height: 844 };

/** Where the page's radio element is in the stream, and whether it plays. */
const radioAudio = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-encore-radio]');
    return { time: audio?.currentTime ?? 0, paused: audio?.paused ?? true, src: audio?.getAttribute('src') ?? null };
  });

/** Whether the song player's element plays. */
const songPlaying = (page: Page) => page.evaluate(() => !(document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.paused ?? true));

/** Opens a page from a menu of the top bar as a user does, in the page (no reload: what plays keeps playing). */
async function openFromMenu(page: Page, menu: { button: string; nav: string }, link: RegExp): Promise<void> {
  await page.getByRole('button', { name: menu.button }).first().click();
  await page.getByRole('navigation', { name: menu.nav }).getByRole('link', { name: link }).click();
}
const LIBRARY_MENU = { button: 'Library', nav: 'Library' };
/** A phone's menu (the Library menu folds into it), in Hebrew. */
const PHONE_MENU_HE = { button: 'פתיחת תפריט', nav: 'ניווט ראשי' };

/**
 * Internet radio (issue 41) in a real browser: an admin adds a station that streams an endless
 * MP3 from a loopback server, plays it (the element's time runs on), and reads what the station
 * says it plays (its ICY metadata, read by the server); the station keeps playing on other pages,
 * shown in a strip above the player bar with a way back and Stop; then the same on a phone in Hebrew.
 */
test.describe('internet radio', () => {
  // The phone journey signs in as the admin the first one made.
  test.describe.configure({ mode: 'serial' });
  test.use({ baseURL: RADIO_URL });
  let encore: OwnEncore | undefined;
  let station: RadioStationServer | undefined;
  const admin = uniqueUser('dj');
  const name = `Loopback FM ${Date.now().toString(36).slice(-4)}`;

  test.beforeAll(async () => {
    station = await startRadioStation('Sine Wave Orchestra - A440 (Live)');
    encore = await startOwnEncore({ name: 'radio', baseUrl: RADIO_URL, env: { ANALYSIS_ON_INGEST: 'false', SIGNIN_LIMIT_PER_IP: '1000' } });
  });
  test.afterAll(async () => {
    await encore?.stop();
    await station?.stop();
  });

  test('an admin adds a station from the Library menu, plays it live and sees what is on', async ({ page }) => {
    test.setTimeout(120_000);
    const stream = station!;
    await signUpThroughUi(page, admin);
    await signInThroughUi(page, admin);
    await page.getByRole('button', { name: 'Library' }).first().click();
    await page.getByRole('link', { name: /^Radio/ }).click();
    await expect(page).toHaveURL(/\/radio$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Radio' })).toBeVisible();

    await page.getByRole('button', { name: 'Add station' }).click();
    const form = page.getByRole('dialog', { name: 'Add a radio station' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Stream URL').fill('file:///etc/passwd');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('The address must start with http:// or https://')).toBeVisible();
    await form.getByLabel('Stream URL').fill(stream.streamUrl);
    await form.getByLabel('Home page (optional)').fill('https://radio.example/');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();

    const row = page.getByRole('article', { name });
    await expect(row.getByRole('link', { name: `Home page of ${name} (opens in a new tab)` })).toHaveAttribute('href', 'https://radio.example/');
    await row.getByRole('button', { name: `Play ${name}` }).click();
    await expect(row.getByRole('button', { name: `Stop ${name}` })).toBeVisible();
    await expect.poll(async () => (await radioAudio(page)).time, { timeout: 20_000 }).toBeGreaterThan(1.5);
    expect((await radioAudio(page)).paused).toBe(false);
    await expect(row.getByTestId('radio-now-playing')).toHaveText(`Now playing: ${stream.title}`);
    expect(stream.audioRequests()).toBeGreaterThan(0);
    expect(stream.metadataRequests()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page, ['main']);
    await snap(page, 'radio-playing-en', { fullPage: false });

    // Another page: the same element goes on playing the same stream, and the strip shows it.
    await openFromMenu(page, LIBRARY_MENU, /^All Music/);
    await expect(page).toHaveURL(/\/music$/);
    const strip = page.getByRole('region', { name: 'Radio playing' });
    await expect(strip.getByTestId('radio-strip-now-playing')).toHaveText(`Now playing: ${stream.title}`);
    await expect(strip.getByRole('button', { name: `Stop ${name}` })).toBeVisible();
    const left = await radioAudio(page);
    expect(left).toMatchObject({ paused: false, src: stream.streamUrl });
    await expect.poll(async () => (await radioAudio(page)).time, { timeout: 20_000 }).toBeGreaterThan(left.time + 1);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expect(strip).toBeInViewport({ ratio: 1 });
    await expectNoSeriousA11yViolations(page, ['[data-testid="radio-strip"]']);
    await snap(page, 'radio-strip-phone-en', { fullPage: false });

    // The strip leads back to the Radio page, where the row plays on and the strip steps aside.
    await strip.getByRole('link', { name: `${name}, open the Radio page` }).click();
    await expect(page).toHaveURL(/\/radio$/);
    await expect(strip).toBeHidden();
    expect(await radioAudio(page)).toMatchObject({ paused: false, src: stream.streamUrl });
    await row.getByRole('button', { name: `Stop ${name}` }).click();
    await expect(row.getByRole('button', { name: `Play ${name}` })).toBeVisible();
    expect(await radioAudio(page)).toMatchObject({ paused: true, src: null });
  });

  test('on a phone in Hebrew, right to left: plays the station over a paused song, shows its title, and in the strip above the player bar', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stream = station!;
    const context = await browser.newContext({ baseURL: RADIO_URL, viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const song = `Tune ${Date.now().toString(36).slice(-4)}`;
    await uploadViaApi(page.request, await apiToken(page.request, admin), await makeSong(await fixtureDir(), { title: song, artist: 'Band', seconds: 120 }));
    await signInThroughUi(page, admin);
    await page.evaluate(() => localStorage.setItem('language', 'he'));

    // A song plays first: its bar stays when the station takes over (the song paused).
    await page.goto('/music');
    await page
      .getByRole('button', { name: new RegExp(`^ניגון .*${song}`) })
      .first()
      .tap();
    const bar = page.getByRole('region', { name: 'נגן', exact: true });
    await expect(bar).toBeVisible();
    await expect.poll(() => songPlaying(page), { timeout: 20_000 }).toBe(true);
    await openFromMenu(page, PHONE_MENU_HE, /^רדיו$/);
    await expect(page.getByRole('heading', { level: 1, name: 'רדיו' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    const row = page.getByRole('article', { name });
    await row.getByRole('button', { name: `הפעלת ${name}` }).tap();
    await expect.poll(() => songPlaying(page)).toBe(false);
    await expect.poll(async () => (await radioAudio(page)).time, { timeout: 20_000 }).toBeGreaterThan(1.5);
    await expect(row.getByTestId('radio-now-playing')).toHaveText(`מתנגן עכשיו: \u2068${stream.title}\u2069`);
    await expect(row.getByText('חי')).toBeVisible();
    // Nothing spills sideways at 390 px, and the admin's buttons stay inside the card.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const card = (await row.boundingBox())!;
    for (const label of [`עריכת ${name}`, `מחיקת ${name}`, `עצירת ${name}`]) {
      const box = (await row.getByRole('button', { name: label }).boundingBox())!;
      expect(box.x, label).toBeGreaterThanOrEqual(card.x);
      expect(box.x + box.width, label).toBeLessThanOrEqual(card.x + card.width);
    }
    await expectNoSeriousA11yViolations(page, ['main']);
    await snap(page, 'radio-phone-he', { fullPage: false });

    // The edit form opens with the station's values, the address left to right.
    await row.getByRole('button', { name: `עריכת ${name}` }).tap();
    const form = page.getByRole('dialog', { name: 'עריכת תחנת הרדיו' });
    await expect(form.getByLabel('כתובת השידור')).toHaveValue(stream.streamUrl);
    await expect(form.getByLabel('כתובת השידור')).toHaveAttribute('dir', 'ltr');
    await expect(form).toBeInViewport({ ratio: 1 });
    await snap(page, 'radio-phone-he-edit', { fullPage: false });
    await form.getByRole('button', { name: 'ביטול' }).tap();
    await expect(form).toBeHidden();

    // Elsewhere, the strip sits above the player bar, covering none of it, and stops the station.
    await openFromMenu(page, PHONE_MENU_HE, /^כל המוזיקה$/);
    await expect(page).toHaveURL(/\/music$/);
    const strip = page.getByRole('region', { name: 'רדיו מתנגן' });
    await expect(strip.getByTestId('radio-strip-now-playing')).toHaveText(`מתנגן עכשיו: ${stream.title}`);
    expect(await radioAudio(page)).toMatchObject({ paused: false, src: stream.streamUrl });
    await expect(bar).toBeVisible();
    // The strip slides in: once it has settled, its bottom is above the bar's top.
    const stripCard = strip.getByRole('button', { name: `עצירת ${name}` }).locator('xpath=..');
    await expect
      .poll(async () => {
        const card = (await stripCard.boundingBox())!;
        return card.y + card.height - (await bar.boundingBox())!.y;
      })
      .toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousA11yViolations(page, ['[data-testid="radio-strip"]']);
    await snap(page, 'radio-strip-phone-he', { fullPage: false });
    await strip.getByRole('button', { name: `עצירת ${name}` }).tap();
    await expect(strip).toBeHidden();
    expect(await radioAudio(page)).toMatchObject({ paused: true, src: null });
    await expect(bar).toBeVisible();
    await context.close();
  });
});
