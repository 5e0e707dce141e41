/**
 * Karaoke highlight error against the audio clock, in Chromium: the built Encore serves a song
 * with 80 LRC lines half a second apart; the song page plays it in karaoke mode while the page
 * records, at each change of the highlighted line, the audio element's own time. The error of
 * a change is that time minus the line's start (positive: late). Prints median, p95 and max in
 * ms over every line change of two plays. Builds nothing: run `npm run build` first.
 *
 * BENCH_PORT (default 8302) is where the server listens on 127.0.0.1.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env['BENCH_PORT'] ?? 8302);
const base = `http://127.0.0.1:${port}`;
const LINES = 80;
const GAP = 0.5;
const SECONDS = Math.ceil(LINES * GAP + 3);

if (!existsSync(path.join(root, 'server/dist/main.js')) || !existsSync(path.join(root, 'web/dist/index.html'))) {
  console.error('No server/dist or web/dist: run `npm run build` first.');
  process.exit(1);
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-karaoke-bench-'));
const server = spawn(process.execPath, [path.join(root, 'server/dist/main.js'), 'serve'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    const ok = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

async function api<T>(method: string, url: string, token: string | null, body?: unknown, raw?: Buffer, type?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (type) headers['content-type'] = type;
  const response = await fetch(url.startsWith('http') ? url : `${base}${url}`, {
    method,
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function lrc(): string {
  const tag = (seconds: number) => `[${String(Math.floor(seconds / 60)).padStart(2, '0')}:${(seconds % 60).toFixed(2).padStart(5, '0')}]`;
  return Array.from({ length: LINES }, (_, i) => `${tag(1 + i * GAP)}Line number ${i + 1}`).join('\n');
}

try {
  await waitForServer();
  const user = { userName: `bench${Date.now().toString(36)}`, email: `bench${Date.now()}@example.com`, password: 'Str0ng!pass' };
  await api('POST', '/api/auth/signup', null, user);
  const { token } = await api<{ token: string }>('POST', '/api/auth/signin', null, { userName: user.userName, password: user.password });

  const file = path.join(dataDir, 'karaoke-bench.mp3');
  execFileSync(process.env['FFMPEG_PATH'] ?? 'ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${SECONDS}`,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-metadata',
    'title=Karaoke Bench',
    file,
  ]);
  const bytes = await readFile(file);
  const { url, key } = await api<{ url: string; key: string }>('GET', '/api/upload/presigned-url?fileName=karaoke-bench.mp3', token);
  await api('PUT', url, null, undefined, bytes, 'audio/mpeg');
  const { id } = await api<{ id: number }>('POST', '/api/upload/upload-complete', token, {
    fileName: 'karaoke-bench.mp3',
    fileType: 'audio/mpeg',
    size: bytes.length,
    s3key: key,
    folderId: 0,
  });
  await api('PUT', `/api/files/${id}/lyrics`, token, { transcript: lrc() });

  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.goto(`${base}/signin`);
  await page.evaluate(
    `localStorage.setItem('token', ${JSON.stringify(token)}); localStorage.setItem('userName', ${JSON.stringify(user.userName)}); localStorage.setItem('email', ${JSON.stringify(user.email)});`,
  );
  await page.goto(`${base}/music/${id}`);
  const panel = page.getByTestId('lyrics-panel');
  await panel.getByText('Line number 1', { exact: true }).first().waitFor({ timeout: 60_000 });
  await panel.getByRole('button', { name: 'Karaoke' }).click();
  try {
    await page.getByTestId('karaoke-lines').waitFor();
  } catch (error) {
    await page.screenshot({ path: path.join(dataDir, 'karaoke-bench-failure.png'), fullPage: true });
    console.log(`the karaoke view did not open; the page is in ${path.join(dataDir, 'karaoke-bench-failure.png')}`);
    throw error;
  }

  // In the page: at each change of the highlighted line, the audio clock and the line's start.
  await page.evaluate(`(() => {
    window.__karaoke = [];
    const lines = document.querySelector('[data-testid="karaoke-lines"]');
    new MutationObserver(() => {
      const audio = document.querySelector('audio[data-encore-player]');
      const active = lines.querySelector('[data-active="true"]');
      if (!audio || !active || audio.paused) return;
      window.__karaoke.push({ clock: audio.currentTime, start: Number(active.dataset.start) });
    }).observe(lines, { subtree: true, attributes: true, attributeFilter: ['data-active'] });
  })()`);

  const errors: number[] = [];
  for (let play = 0; play < 2; play += 1) {
    await page.evaluate('window.__karaoke = []');
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    // Polled from here: the page's content security policy forbids waitForFunction's string form.
    const deadline = Date.now() + (SECONDS + 30) * 1000;
    while (((await page.evaluate(`document.querySelector('audio[data-encore-player]')?.currentTime ?? 0`)) as number) <= 1 + LINES * GAP) {
      if (Date.now() > deadline) throw new Error('the song did not play through');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const samples = (await page.evaluate('window.__karaoke')) as { clock: number; start: number }[];
    // A change that follows a seek or the start is not a line boundary crossed while playing.
    for (const sample of samples) if (sample.start > 1) errors.push((sample.clock - sample.start) * 1000);
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
    await page.getByRole('button', { name: /^Play from "Line number 1"/ }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
  }
  await browser.close();

  const sorted = [...errors].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  console.log(`karaoke highlight error vs audio clock (Chromium, ${LINES} lines ${GAP}s apart, ${sorted.length} line changes over 2 plays)`);
  console.log(
    `  median ${at(0.5).toFixed(1)} ms   p95 ${at(0.95).toFixed(1)} ms   max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms   min ${(sorted[0] ?? Number.NaN).toFixed(1)} ms`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
