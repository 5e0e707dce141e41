import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { fixtureDir, makeSong } from './media.js';
import { snap, uniqueUser } from './support.js';
// Types only: the modules themselves are the built server's, loaded at run time below.
import type * as DatabaseModuleTypes from '../../server/dist/platform/db/database.js';
import type * as RepositoryModuleTypes from '../../server/dist/features/library/library.repository.js';
import type * as SchemaModuleTypes from '../../server/dist/platform/db/schema.js';

type DatabaseModule = typeof DatabaseModuleTypes;
type RepositoryModule = typeof RepositoryModuleTypes;
type SchemaModule = typeof SchemaModuleTypes;

/**
 * Issue 14: a 50,000-song library in a real browser. The rows go straight into a fresh PGlite
 * data folder through the built server's own repository (as the scale bench makes them); the
 * newest songs get real audio so they play. A second Encore serves that folder on its own
 * port for this file only.
 */
const SONGS = Number(process.env['E2E_LARGE_SONGS'] ?? 50_000);
const PLAYABLE = 30;
const here = path.dirname(fileURLToPath(import.meta.url));
const serverMain = path.resolve(here, '../../server/dist/main.js');
const port = Number(process.env['E2E_PORT'] ?? 8181) + 2;
const base = `http://127.0.0.1:${port}`;

const WORDS = ['Midnight', 'Golden', 'Broken', 'Silver', 'Electric', 'Lonely', 'Summer', 'Velvet', 'Paper', 'Neon', 'Hollow', 'Crimson', 'Quiet', 'Burning', 'Northern', 'Wild'];
const NOUNS = ['Heart', 'River', 'Dreams', 'Highway', 'Lights', 'Rain', 'Garden', 'Skies', 'Echoes', 'Shadows', 'Waves', 'Roads', 'Stars', 'Letters', 'Fire', 'Bones'];

/** Song i: two words and a number; the newest (highest i) first on the music page. */
function title(i: number): string {
  return `${WORDS[i % 16]} ${NOUNS[Math.floor(i / 16) % 16]} ${i}`;
}

async function seed(dataDir: string): Promise<void> {
  const { openDatabase } = (await import(path.resolve(here, '../../server/dist/platform/db/database.js'))) as DatabaseModule;
  const { LibraryRepository } = (await import(path.resolve(here, '../../server/dist/features/library/library.repository.js'))) as RepositoryModule;
  const { users } = (await import(path.resolve(here, '../../server/dist/platform/db/schema.js'))) as SchemaModule;
  const database = await openDatabase({ url: undefined, pgliteDir: path.join(dataDir, 'db') });
  try {
    // The collection's owner: an account nobody can sign in to (no password).
    const [owner] = await database.db.insert(users).values({ userName: 'archivist', email: 'archivist@example.com' }).returning({ id: users.id });
    const rows = Array.from({ length: SONGS }, (_, i) => ({
      ownerId: owner!.id,
      displayName: title(i),
      title: title(i),
      artist: `${WORDS[(i * 7) % 16]} ${NOUNS[(i * 3) % 16]} ${i % 2000}`,
      album: `${NOUNS[(i * 5) % 16]} of ${WORDS[(i * 11) % 16]} ${i % 6000}`,
      fileName: `song-${i}.mp3`,
      fileType: 'audio/mpeg',
      storageKey: `songs/large/${i}/song.mp3`,
      size: 160_000,
      durationSeconds: 20,
      uploadedAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000),
    }));
    await new LibraryRepository(database.db).insertMany(rows);
  } finally {
    await database.close();
  }
  // Real audio for the newest songs: the first pages play.
  const audio = await makeSong(await fixtureDir(), { title: 'Large library', artist: 'Encore', seconds: 20, frequency: 350 });
  for (let i = SONGS - PLAYABLE; i < SONGS; i += 1) {
    const file = path.join(dataDir, 'media', 'songs', 'large', String(i), 'song.mp3');
    await mkdir(path.dirname(file), { recursive: true });
    await copyFile(audio, file);
  }
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [serverMain, 'serve'], {
    env: { PATH: process.env['PATH'], PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn', ANALYSIS_BACKFILL: 'false', SIGNIN_LIMIT_PER_IP: '1000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const healthy = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return server;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the large-library server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const cards = (page: Page) => page.locator('#music-list').getByRole('article');
const bar = (page: Page) => page.getByRole('region', { name: 'Player' });

test.describe('a 50,000-song library', () => {
  test.describe.configure({ timeout: 300_000 });
  let dataDir: string;
  let server: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    dataDir = await mkdtemp(path.join(tmpdir(), 'encore-large-'));
    await seed(dataDir);
    server = await startServer(dataDir);
  });
  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((resolve) => (server?.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    await rm(dataDir, { recursive: true, force: true });
  });

  test('browse, page, search with a typo, play, next and previous, and pick songs without loading the list', async ({ page, request }) => {
    // Signed in through this server's API; the session is stored as a sign-in stores it.
    const user = uniqueUser('large');
    expect((await request.post(`${base}/api/auth/signup`, { data: user })).ok()).toBe(true);
    const { token } = (await (await request.post(`${base}/api/auth/signin`, { data: { userName: user.userName, password: user.password } })).json()) as { token: string };
    await page.goto(`${base}/signin`);
    await page.evaluate((session) => {
      localStorage.setItem('token', session.token);
      localStorage.setItem('userName', session.userName);
      localStorage.setItem('email', session.email);
    }, { token, userName: user.userName, email: user.email });

    // The newest songs first, a page of 8, and the count of all of them.
    const answers: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/files') answers.push(Number(response.headers()['content-length'] ?? 0));
    });
    await page.goto(`${base}/music`);
    await expect(cards(page)).toHaveCount(8);
    await expect(cards(page).first()).toContainText(title(SONGS - 1));
    await expect(page.getByText(`${SONGS.toLocaleString('en')} songs`)).toBeVisible();
    await snap(page, 'large-library');

    // Page forward by number: the server sends the page, never the list.
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Page 2' }).click();
    await expect(cards(page).first()).toContainText(title(SONGS - 9));
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect(cards(page).first()).toContainText(title(SONGS - 17));
    expect(Math.max(...answers)).toBeLessThan(50_000);

    // Search with a typo ("Shadows" misspelt), then clear it.
    // Song n has "Shadows" in its title when n / 16 leaves 9 over 16; its number is unique.
    const shadowed = SONGS - 1 - ((SONGS - 1 - 144) % 256);
    await page.getByRole('searchbox', { name: /Search/ }).fill(`shaddows ${shadowed}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(title(shadowed));
    await page.getByRole('searchbox', { name: /Search/ }).fill('');
    await expect(cards(page).first()).toContainText(title(SONGS - 1));

    // Play the second song; next and previous follow the list.
    await cards(page).nth(1).getByRole('button', { name: `Play ${title(SONGS - 2)}` }).click();
    await expect(bar(page).getByRole('link', { name: title(SONGS - 2) })).toBeVisible();
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await expect(bar(page).getByRole('link', { name: title(SONGS - 3) })).toBeVisible();
    await bar(page).getByRole('button', { name: 'Previous' }).click();
    await expect(bar(page).getByRole('link', { name: title(SONGS - 2) })).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? 0), { timeout: 20_000 }).toBeGreaterThan(0.3);

    // The Song2Clip song picker searches the server too.
    await page.goto(`${base}/song2clip`);
    await page.getByRole('searchbox', { name: 'Search songs' }).fill(`${title(SONGS - 5)}`);
    await expect(page.getByRole('list', { name: 'Songs' }).getByRole('button', { name: new RegExp(title(SONGS - 5)) })).toBeVisible();
    expect(Math.max(...answers)).toBeLessThan(50_000);
  });
});
