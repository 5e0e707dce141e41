/**
 * Issue 14: the music page in Chromium on a 50,000-song library, from navigation to the first
 * song cards on screen (goal 500 ms). Issue 38: the Albums page, from navigation to the first
 * album cover drawn (its picture decoded; every song gets a cover, its thumbnail a real 300 px
 * JPEG in storage), goal 500 ms too. The built web app (`npm run build` first) is served by an
 * in-process Encore on 127.0.0.1:`BENCH_PORT` (default 8303) whose library is made as rows (the
 * scale bench's). Two ways in: a full page load of /music, and the Library menu's All Music from
 * another page of the app. Median and p95 of `FIRST_CARDS_RUNS` (default 15) each, PGlite and
 * (with TEST_DATABASE_URL) PostgreSQL. Asserts nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import sharp from 'sharp';
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { benchEngines, fmt, startBenchApp, summarize } from '../library/bench-app.js';
import { songRow } from '../library/scale-library.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['FIRST_CARDS_RUNS'] ?? 15);
const GOAL_MS = 500;
const port = Number(process.env['BENCH_PORT'] ?? 8303);
const base = `http://127.0.0.1:${port}`;
const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
if (!existsSync(path.join(webDist, 'index.html'))) {
  console.error(`No built web app in ${webDist}: run npm run build first.`);
  process.exit(1);
}

/** The page's own objects this bench reads (the file is compiled without the DOM's types). */
interface PageElement {
  complete?: boolean;
  naturalWidth?: number;
  decode?: () => Promise<void>;
}
interface PageWindow {
  document: { querySelector(selector: string): PageElement | null; addEventListener(type: string, listener: () => void, options: object): void };
  performance: { now(): number };
  requestAnimationFrame(callback: () => void): void;
  benchClickAt?: number;
}

const FIRST_SONG_CARD = '#music-list article';
const FIRST_ALBUM_COVER = '[data-testid="album-card"] img';

/**
 * The page's clock (ms since its navigation began) when `selector` first matches, checked every
 * frame in the page itself (Playwright's own waits poll at growing intervals, up to 500 ms late);
 * a picture counts once it is decoded. Call it right after the navigation is committed.
 */
function shownAt(page: Page, selector: string, picture: boolean): Promise<number> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ selector, picture }) => {
      const win = globalThis as unknown as PageWindow;
      for (;;) {
        const element = win.document.querySelector(selector);
        if (element && !picture) return win.performance.now();
        if (
          element?.complete &&
          element.naturalWidth &&
          element.decode &&
          (await element.decode().then(
            () => true,
            () => false,
          ))
        )
          return win.performance.now();
        await new Promise<void>((resolve) => win.requestAnimationFrame(resolve));
      }
    },
    { selector, picture },
  );
}

/** A full page load of `url`: ms from the navigation's start to `selector` shown. */
async function fullLoad(page: Page, url: string, selector: string, picture: boolean): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return shownAt(page, selector, picture);
}

/** From another page through the Library menu's `item`: ms from the click to `selector` shown. */
async function fromLibraryMenu(page: Page, item: RegExp, selector: string, picture: boolean): Promise<number> {
  await page.goto(`${base}/playlists`);
  await page.getByRole('button', { name: 'Library' }).first().click();
  const entry = page
    .getByRole('menuitem', { name: item })
    .or(page.getByRole('link', { name: item }))
    .first();
  await entry.waitFor();
  await page.evaluate(() => {
    const win = globalThis as unknown as PageWindow;
    win.benchClickAt = undefined;
    win.document.addEventListener('click', () => (win.benchClickAt = win.performance.now()), { capture: true, once: true });
  });
  await entry.click();
  const shown = await shownAt(page, selector, picture);
  const clicked = await page.evaluate(() => (globalThis as unknown as PageWindow).benchClickAt);
  if (clicked === undefined) throw new Error('the click was not seen');
  return shown - clicked;
}

for (const engine of benchEngines) {
  const bench = await startBenchApp(engine, {}, { webDist });
  try {
    // Every song with a cover here (the scale library gives every other one), so that every album
    // of a page has a cover to fetch, as in a well-tagged collection.
    const rows = Array.from({ length: SONGS }, (_, i) => {
      const row = songRow(bench.userId, i);
      return { ...row, coverKey: row.coverKey ?? `covers/scale-${i}/full.jpg`, coverThumbKey: row.coverThumbKey ?? `covers/scale-${i}/thumb.jpg` };
    });
    await new LibraryRepository(bench.app.encore.platform.database.db).insertMany(rows);
    // The albums' thumbnails: one real picture under every thumbnail key (200 at a time).
    const thumb = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 120, g: 40, b: 160 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const thumbKeys = rows.flatMap((row) => (row.coverThumbKey ? [row.coverThumbKey] : []));
    for (let i = 0; i < thumbKeys.length; i += 200) {
      await Promise.all(thumbKeys.slice(i, i + 200).map((key) => bench.app.encore.platform.storage.put(key, thumb, { contentType: 'image/jpeg' })));
    }
    await bench.app.listen({ port, host: '127.0.0.1' });
    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/signin`);
      await page.evaluate(
        `localStorage.setItem('token', ${JSON.stringify(bench.token)}); localStorage.setItem('userName', 'bench'); localStorage.setItem('email', 'bench@example.com');`,
      );
      const loads: number[] = [];
      const inApp: number[] = [];
      const albumLoads: number[] = [];
      const albumsInApp: number[] = [];
      // The first round warms the browser's cache of the app's files, as a second visit would have it.
      for (let run = 0; run < RUNS + 1; run += 1) {
        const load = await fullLoad(page, `${base}/music`, FIRST_SONG_CARD, false);
        // From another page of the app (the music page's query cache is dropped by the full load
        // above, so the cards come from the server each time).
        const nav = await fromLibraryMenu(page, /All Music/, FIRST_SONG_CARD, false);
        const albumLoad = await fullLoad(page, `${base}/albums`, FIRST_ALBUM_COVER, true);
        const albumNav = await fromLibraryMenu(page, /^Albums/, FIRST_ALBUM_COVER, true);
        if (run === 0) continue;
        loads.push(load);
        inApp.push(nav);
        albumLoads.push(albumLoad);
        albumsInApp.push(albumNav);
      }
      const load = summarize(loads);
      const nav = summarize(inApp);
      const albumLoad = summarize(albumLoads);
      const albumNav = summarize(albumsInApp);
      console.log(`${engine}: music page in Chromium, ${SONGS} songs, first cards visible (goal ${GOAL_MS} ms), ${RUNS} runs`);
      console.log(`  full page load of /music: median ${fmt(load.median)} ms, p95 ${fmt(load.p95)} ms (p95 / goal ${fmt(load.p95 / GOAL_MS, 2)})`);
      console.log(`  Library > All Music from another page: median ${fmt(nav.median)} ms, p95 ${fmt(nav.p95)} ms (p95 / goal ${fmt(nav.p95 / GOAL_MS, 2)})`);
      console.log(`${engine}: Albums page in Chromium, first album cover drawn (goal ${GOAL_MS} ms), ${RUNS} runs`);
      console.log(
        `  full page load of /albums: median ${fmt(albumLoad.median)} ms, p95 ${fmt(albumLoad.p95)} ms (p95 / goal ${fmt(albumLoad.p95 / GOAL_MS, 2)})`,
      );
      console.log(
        `  Library > Albums from another page: median ${fmt(albumNav.median)} ms, p95 ${fmt(albumNav.p95)} ms (p95 / goal ${fmt(albumNav.p95 / GOAL_MS, 2)})`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    await bench.close();
  }
}
