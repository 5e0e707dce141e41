import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiToken } from './media.js';
import { signInThroughUi, signUpViaApi, uniqueUser } from './support.js';

/**
 * Resumable uploads (issue 27) in a real browser: a large WAV picked on the upload page goes up
 * through tus in 8 MiB PATCHes; one PATCH past the start of the file is cut (the connection
 * reset), and later the browser goes offline for a moment mid-PATCH; the upload asks the server
 * how much arrived (HEAD), sends the rest, and the song appears with every byte.
 *
 * The file is 100 MB when the server's MAX_UPLOAD_MB allows it (set MAX_UPLOAD_MB=200 in the
 * e2e server's environment for the full run); under a smaller limit it is just below the limit
 * (still larger than one chunk, so it still goes through tus).
 */

const MB = 1024 * 1024;
const CHUNK = 8 * MB;

/** A PCM WAV of silence, `bytes` long in all. */
function wav(bytes: number): Buffer {
  const file = Buffer.alloc(bytes);
  file.write('RIFF', 0, 'ascii');
  file.writeUInt32LE(bytes - 8, 4);
  file.write('WAVEfmt ', 8, 'ascii');
  file.writeUInt32LE(16, 16);
  file.writeUInt16LE(1, 20);
  file.writeUInt16LE(2, 22);
  file.writeUInt32LE(44_100, 24);
  file.writeUInt32LE(176_400, 28);
  file.writeUInt16LE(4, 32);
  file.writeUInt16LE(16, 34);
  file.write('data', 36, 'ascii');
  file.writeUInt32LE(bytes - 44, 40);
  return file;
}

test('a large file uploads resumably after the connection drops midway', async ({ page, request, context }) => {
  test.setTimeout(180_000);
  const config = (await (await request.get('/api/config')).json()) as { maxUploadMb: number };
  const limit = Math.floor(config.maxUploadMb * MB);
  const size = Math.min(100 * MB, limit - MB / 2);
  // playwright.config.ts sets MAX_UPLOAD_MB=200: the journey sends the 100 MB file, never a skipped one.
  expect(size, `MAX_UPLOAD_MB (${config.maxUploadMb}) must leave room for a 100 MB file`).toBe(100 * MB);

  const dir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-resumable-'));
  const run = Date.now().toString(36).slice(-5);
  const fileName = `Resumable ${run}.wav`;
  const file = path.join(dir, fileName);
  await writeFile(file, wav(size));
  try {
    const user = uniqueUser('resume');
    await signUpViaApi(request, user);
    await signInThroughUi(page, user);

    // What the browser sends to the tus endpoint, in order.
    const tusCalls: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/upload/tus')) tusCalls.push(`${sent.method()} ${sent.headers()['upload-offset'] ?? ''}`.trim());
    });
    // The cut: the first PATCH that starts past the beginning of the file is reset once.
    let cut = false;
    await page.route('**/api/upload/tus/**', async (route) => {
      const sent = route.request();
      if (!cut && sent.method() === 'PATCH' && Number(sent.headers()['upload-offset'] ?? '0') > 0) {
        cut = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });

    await page.goto('/upload');
    await expect(page.getByText(`Up to ${config.maxUploadMb}MB per file`, { exact: false })).toBeVisible();
    await page.getByLabel('Choose music files').setInputFiles(file);
    await expect(page.getByText(fileName)).toBeVisible();
    await page.getByRole('button', { name: 'Upload Music File' }).click();
    await expect(page.getByRole('button', { name: /Uploading\.\.\. \d+%/ })).toBeVisible();

    // Later, the line goes away for a moment while bytes are on their way, and comes back.
    await expect.poll(() => cut, { message: 'a PATCH past the start was cut', timeout: 60_000 }).toBe(true);
    if (size > 3 * CHUNK) {
      await expect.poll(() => tusCalls.filter((call) => call.startsWith('PATCH')).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
      const failed = page.waitForEvent('requestfailed', { predicate: (sent) => sent.url().includes('/api/upload/tus'), timeout: 60_000 });
      await context.setOffline(true);
      // Down until a request of the upload has failed on it (the PATCH in flight, or the next one).
      await failed;
      await context.setOffline(false);
    }

    await expect(page.getByRole('button', { name: 'Upload Complete' })).toBeVisible({ timeout: 120_000 });
    await expect(page.getByText('Upload successful')).toBeVisible();
    expect(tusCalls[0]).toBe('POST');
    // After the cut the browser asked what had arrived, then went on from there.
    expect(tusCalls).toContain('HEAD');

    // The song is there, whole: its size is the file's.
    const token = await apiToken(request, user);
    const mine = await request.get('/api/files?owner=true', { headers: { authorization: `Bearer ${token}` } });
    const songs = (await mine.json()) as { displayName: string; size: number }[];
    expect(songs).toEqual([expect.objectContaining({ displayName: `Resumable ${run}`, size })]);
    await page.goto('/music?owner=true');
    await expect(page.getByText(`Resumable ${run}`).first()).toBeVisible();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
