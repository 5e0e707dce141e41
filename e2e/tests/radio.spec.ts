import { expect, test, type Page } from '@playwright/test';
import { ownEncoreUrl, startOwnEncore, type OwnEncore } from '../own-encore.js';
import { expectNoSeriousA11yViolations } from './accessibility.js';
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

/**
 * Internet radio (issue 41) in a real browser: an admin adds a station that streams an endless
 * MP3 from a loopback server, plays it (the element's time runs on), and reads what the station
 * says it plays (its ICY metadata, read by the server); then the same on a phone in Hebrew.
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

    await row.getByRole('button', { name: `Stop ${name}` }).click();
    await expect(row.getByRole('button', { name: `Play ${name}` })).toBeVisible();
    expect(await radioAudio(page)).toMatchObject({ paused: true, src: null });
  });

  test('on a phone in Hebrew, right to left: plays the station and shows its title', async ({ browser }) => {
    test.setTimeout(120_000);
    const stream = station!;
    const context = await browser.newContext({ baseURL: RADIO_URL, viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signInThroughUi(page, admin);
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.goto('/radio');
    await expect(page.getByRole('heading', { level: 1, name: 'רדיו' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    const row = page.getByRole('article', { name });
    await row.getByRole('button', { name: `הפעלת ${name}` }).tap();
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
    await context.close();
  });
});
