import { expect, test } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { playing, playlistViaApi } from './player-audio.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';

/**
 * Encore as an installable app (issue 30): a valid manifest with its icons, a service worker
 * that keeps the app shell, and a playlist saved for offline that plays with no connection.
 */

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('the manifest and its icons make the app installable', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await request.get(href!);
  expect(response.ok()).toBe(true);
  expect(response.headers()['content-type']).toMatch(/application\/(manifest\+)?json/);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Encore', short_name: 'Encore', display: 'standalone', start_url: '/music' });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  const need = [
    { sizes: '192x192', purpose: 'any' },
    { sizes: '512x512', purpose: 'any' },
    { sizes: '512x512', purpose: 'maskable' },
  ];
  for (const wanted of need) {
    const icon = manifest.icons.find((entry) => entry.sizes === wanted.sizes && (entry.purpose ?? 'any').split(' ').includes(wanted.purpose));
    expect(icon, `an icon ${wanted.sizes} for ${wanted.purpose}`).toBeTruthy();
    const image = await request.get(icon!.src);
    expect(image.ok()).toBe(true);
    const [width, height] = wanted.sizes.split('x').map(Number);
    expect(pngSize(await image.body())).toEqual({ width, height });
  }

  // The service worker installs, takes the page, and keeps the shell for a start offline.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toMatch(/\/$/);
  const worker = await request.get('/sw.js');
  expect(worker.ok()).toBe(true);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  expect(worker.headers()['cache-control']).toContain('no-cache');
  const shell = await page.evaluate(async () => {
    const names = await caches.keys();
    const name = names.find((entry) => entry.startsWith('encore-shell-'));
    return name ? (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname) : [];
  });
  expect(shell).toContain('/index.html');
  expect(shell.some((file) => /^\/assets\/.*\.js$/.test(file))).toBe(true);
});

test('a playlist saved for offline plays with the network gone', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const user = uniqueUser('offline');
  await signUpViaApi(request, user);
  const token = await apiToken(request, user);
  const dir = await fixtureDir();
  const ids = [
    await uploadViaApi(request, token, await makeSong(dir, { title: 'Offline One', artist: 'Away', seconds: 20, frequency: 392 })),
    await uploadViaApi(request, token, await makeSong(dir, { title: 'Offline Two', artist: 'Away', seconds: 20, frequency: 523 })),
  ];
  const playlistId = await playlistViaApi(request, token, `Trip ${Date.now()}`, ids);

  await signInThroughUi(page, user);
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.goto(`/playlists/${playlistId}`);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.getByRole('button', { name: 'Save for offline' }).click();
  await expect(page.getByTestId('offline-status')).toContainText(/Saved for offline · \d/, { timeout: 30_000 });
  await snap(page, 'playlist-offline-saved');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Trip', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Play All' }).click();
  await expect.poll(async () => (await playing(page)).time, { timeout: 20_000, message: 'the saved song plays offline' }).toBeGreaterThan(1);
  await expect(page.getByRole('region', { name: 'Player' }).getByTestId('player-title')).toHaveAttribute('aria-label', 'Away - Offline One');
  await page.getByRole('button', { name: 'Stop' }).click();

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Remove offline copy' }).click();
  await expect(page.getByRole('button', { name: 'Save for offline' })).toBeVisible();
  const left = await page.evaluate(async () => (await (await caches.open('encore-offline-songs')).keys()).length);
  expect(left).toBe(0);
});
