import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const browserRequired = process.env['CI'] === 'true' || process.env['E2E_REQUIRE_BROWSER'] === '1';
const hasBrowser = existsSync(chromiumPath);
if (!hasBrowser) {
  const message = `Chromium was not found at ${chromiumPath}. Install it (apt-get install chromium) or set CHROMIUM_PATH.`;
  if (browserRequired) throw new Error(message);
  console.warn(`\n*** ${message} Browser tests are skipped. ***\n`);
}

const port = Number(process.env['E2E_PORT'] ?? 8181);
const standInPort = port + 1;
// One data folder per run, shared with the tests through the environment (they read the outbox).
process.env['E2E_DATA_DIR'] ??= mkdtempSync(path.join(tmpdir(), 'encore-e2e-'));
// A music folder (issue 27), empty at start so it adds no songs: music-folders.spec.ts puts files
// in it and takes them out again.
process.env['E2E_MUSIC_DIR'] ??= mkdtempSync(path.join(tmpdir(), 'encore-e2e-music-'));
const reportDir = process.env['ENCORE_REPORT_DIR'];

export default defineConfig({
  testDir: './tests',
  testIgnore: hasBrowser ? [] : ['**/*'],
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  outputDir: path.join(here, 'test-results'),
  reporter: reportDir ? [['list'], ['json', { outputFile: path.join(reportDir, 'playwright.json') }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: hasBrowser
    ? [
        {
          // The transcription engine Encore calls: an OpenAI-protocol server on loopback.
          command: 'node --import tsx transcription-stand-in.ts',
          url: `http://127.0.0.1:${standInPort}/v1/models`,
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
          env: { STAND_IN_PORT: String(standInPort) },
        },
        {
          command: 'node ../server/dist/main.js serve',
          url: `http://127.0.0.1:${port}/api/health`,
          timeout: 120_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: process.env['E2E_DATA_DIR'],
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            LOG_LEVEL: 'warn',
            // Every test signs in from 127.0.0.1: the per-address sign-in limit (tested in the
            // server's own tests) would otherwise stop the run part-way.
            SIGNIN_LIMIT_PER_IP: '1000',
            TRANSCRIBE_ENGINE: 'openai',
            TRANSCRIBE_API_URL: `http://127.0.0.1:${standInPort}`,
            TRANSCRIBE_API_KEY: 'e2e-key',
            TRANSCRIBE_MODEL: 'whisper-1',
            // Room for the resumable upload journey's 100 MB file (the limit is a setting; 10 MB by default).
            MAX_UPLOAD_MB: '200',
            MUSIC_FOLDERS: process.env['E2E_MUSIC_DIR'],
            MUSIC_WATCH: 'on',
          },
        },
      ]
    : undefined,
});
