import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type Route } from '@playwright/test';
import pg from 'pg';
import { fixtureDir, makeSong } from './media.js';
import { snap, uniqueUser } from './support.js';
// Types only: the modules themselves are the built server's, loaded at run time below.
import type * as DatabaseModuleTypes from '../../server/dist/platform/db/database.js';
import type * as RepositoryModuleTypes from '../../server/dist/features/library/library.repository.js';
import type * as AuthSchemaModuleTypes from '../../server/dist/features/auth/auth.schema.js';

type DatabaseModule = typeof DatabaseModuleTypes;
type RepositoryModule = typeof RepositoryModuleTypes;
type AuthSchemaModule = typeof AuthSchemaModuleTypes;

/**
 * Issue 14: a 50,000-song library in a real browser, on both databases. The rows go straight
 * into a fresh database (a PGlite data folder, or a throw-away database on the PostgreSQL
 * server of TEST_DATABASE_URL) through the built server's own repository, as the scale bench
 * makes them; the newest songs get real audio so they play. A second Encore serves that
 * library on its own port for this file only.
 */
const SONGS = Number(process.env['E2E_LARGE_SONGS'] ?? 50_000);
const PLAYABLE = 30;
const here = path.dirname(fileURLToPath(import.meta.url));
const serverMain = path.resolve(here, '../../server/dist/main.js');
const adminUrl = process.env['TEST_DATABASE_URL'];
const engines = adminUrl ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

const WORDS = [
  'Midnight',
  'Golden',
  'Broken',
  'Silver',
  'Electric',
  'Lonely',
  'Summer',
  'Velvet',
  'Paper',
  'Neon',
  'Hollow',
  'Crimson',
  'Quiet',
  'Burning',
  'Northern',
  'Wild',
];
const NOUNS = [
  'Heart',
  'River',
  'Dreams',
  'Highway',
  'Lights',
  'Rain',
  'Garden',
  'Skies',
  'Echoes',
  'Shadows',
  'Waves',
  'Roads',
  'Stars',
  'Letters',
  'Fire',
  'Bones',
];

/** Song i: two words and a number; the newest (highest i) first on the music page. */
function title(i: number): string {
  return `${WORDS[i % 16]} ${NOUNS[Math.floor(i / 16) % 16]} ${i}`;
}

/** A throw-away database on the PostgreSQL server of TEST_DATABASE_URL. */
async function createPostgresDatabase(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `encore_e2e_large_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

async function seed(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const { openDatabase } = (await import(path.resolve(here, '../../server/dist/platform/db/database.js'))) as DatabaseModule;
  const { LibraryRepository } = (await import(path.resolve(here, '../../server/dist/features/library/library.repository.js'))) as RepositoryModule;
  const { users } = (await import(path.resolve(here, '../../server/dist/features/auth/auth.schema.js'))) as AuthSchemaModule;
  const database = await openDatabase({ url: databaseUrl, pgliteDir: path.join(dataDir, 'db') });
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

async function startServer(dataDir: string, databaseUrl: string | undefined, port: number): Promise<ChildProcess> {
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    PATH: process.env['PATH'],
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    ANALYSIS_BACKFILL: 'false',
    SIGNIN_LIMIT_PER_IP: '1000',
  };
  if (databaseUrl) env['DATABASE_URL'] = databaseUrl;
  const server = spawn(process.execPath, [serverMain, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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

/** Plays the card at `index` (song number `song`), then Next plays song - 1 and Previous song again. */
async function playThenNextAndBack(page: Page, index: number, song: number): Promise<void> {
  const playing = (number: number) => expect(bar(page).getByRole('link', { name: title(number) })).toBeVisible();
  await cards(page)
    .nth(index)
    .getByRole('button', { name: `Play ${title(song)}` })
    .click();
  await playing(song);
  await bar(page).getByRole('button', { name: 'Next' }).click();
  await playing(song - 1);
  await bar(page).getByRole('button', { name: 'Previous' }).click();
  await playing(song);
}

for (const [index, engine] of engines.entries()) {
  test.describe(`a 50,000-song library on ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}`, () => {
    test.describe.configure({ timeout: 300_000 });
    const port = Number(process.env['E2E_PORT'] ?? 8181) + 2 + index;
    const base = `http://127.0.0.1:${port}`;
    let dataDir: string;
    let postgres: { url: string; drop: () => Promise<void> } | undefined;
    let server: ChildProcess | undefined;

    test.beforeAll(async () => {
      test.setTimeout(300_000);
      dataDir = await mkdtemp(path.join(tmpdir(), 'encore-large-'));
      if (engine === 'postgres' && adminUrl) postgres = await createPostgresDatabase(adminUrl);
      await seed(dataDir, postgres?.url);
      server = await startServer(dataDir, postgres?.url, port);
    });
    test.afterAll(async () => {
      server?.kill('SIGTERM');
      await new Promise((resolve) => (!server || server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    test('browse, page, search with a typo, play, next and previous, and pick songs without loading the list', async ({ page, request }) => {
      // Signed in through this server's API; the session is stored as a sign-in stores it.
      const user = uniqueUser('large');
      expect((await request.post(`${base}/api/auth/signup`, { data: user })).ok()).toBe(true);
      const { token } = (await (await request.post(`${base}/api/auth/signin`, { data: { userName: user.userName, password: user.password } })).json()) as {
        token: string;
      };
      await page.goto(`${base}/signin`);
      await page.evaluate(
        (session) => {
          localStorage.setItem('token', session.token);
          localStorage.setItem('userName', session.userName);
          localStorage.setItem('email', session.email);
        },
        { token, userName: user.userName, email: user.email },
      );

      // The newest songs first, a page of 8, and the count of all of them.
      const answers: number[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/files') answers.push(Number(response.headers()['content-length'] ?? 0));
      });
      await page.goto(`${base}/music`);
      await expect(cards(page)).toHaveCount(8);
      await expect(cards(page).first()).toContainText(title(SONGS - 1));
      await expect(page.getByText(`${SONGS.toLocaleString('en')} songs`)).toBeVisible();
      await snap(page, engine === 'pglite' ? 'large-library' : 'large-library-postgres');

      // Page forward by number: the server sends the page, never the list.
      const pages = page.getByRole('navigation', { name: 'Pages' });
      await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
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
      await playThenNextAndBack(page, 1, SONGS - 2);
      await expect
        .poll(() => page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')?.currentTime ?? 0), { timeout: 20_000 })
        .toBeGreaterThan(0.3);

      // The queue crosses pages: Next from the last card of page 1 plays the first of page 2,
      // which the browser has not loaded yet; Previous comes back.
      await playThenNextAndBack(page, 7, SONGS - 8);

      // A page seen before comes back from the browser's memory: with every answer from the
      // server held back, going back to page 1 still shows it at once.
      await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
      await expect(cards(page).first()).toContainText(title(SONGS - 9));
      const held: Route[] = [];
      const songList = (url: URL) => url.pathname === '/api/files';
      await page.route(songList, (route) => {
        held.push(route);
      });
      await pages.getByRole('button', { name: 'Page 1', exact: true }).click();
      await expect(cards(page).first()).toContainText(title(SONGS - 1));
      await expect(cards(page)).toHaveCount(8);
      await page.unroute(songList);
      for (const route of held) await route.continue();

      // The playlist page's Add Song selector finds a song deep in the library on the server.
      const created = await request.post(`${base}/api/playlists`, { headers: { authorization: `Bearer ${token}` }, data: { name: 'Deep cuts' } });
      expect(created.status()).toBe(201);
      const { id: playlistId } = (await created.json()) as { id: number };
      await page.goto(`${base}/playlists/${playlistId}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Deep cuts' })).toBeVisible();
      await expect(page.getByText(/^The first 50 of /)).toBeVisible();
      const deep = 1234;
      await page.getByRole('searchbox', { name: /Search/ }).fill(title(deep));
      const select = page.getByLabel('Add a song');
      await expect(select.locator('option', { hasText: title(deep) })).toHaveCount(1);
      await select.selectOption({ label: title(deep) });
      await page.getByRole('button', { name: 'Add Song' }).click();
      await expect(page.getByText('1 song', { exact: true })).toBeVisible();
      expect(Math.max(...answers)).toBeLessThan(50_000);

      // The Song2Clip song picker searches the server too.
      await page.goto(`${base}/song2clip`);
      await page.getByRole('searchbox', { name: 'Search songs' }).fill(`${title(SONGS - 5)}`);
      await expect(page.getByRole('list', { name: 'Songs' }).getByRole('button', { name: new RegExp(title(SONGS - 5)) })).toBeVisible();
      expect(Math.max(...answers)).toBeLessThan(50_000);
    });
  });
}
