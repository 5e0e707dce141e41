import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The address of the admin journey's Encore (the shared e2e server's port + 5). */
export const ADMIN_URL = `http://127.0.0.1:${Number(process.env['E2E_PORT'] ?? 8181) + 5}`;

export interface AdminEncore {
  dataDir: string;
  musicDir: string;
  /** The first link in the newest mail to `email` whose path matches, as the outbox holds it. */
  linkFromOutbox(email: string, pathPattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A fresh Encore of the built app for the admin journey: its first sign-up is its admin, which
 * the shared server (whose first account some other journey made) cannot promise. SIGNUP is
 * left unset, so the admin page decides who may join; a music folder, empty, gives Scan now.
 */
export async function startAdminEncore(): Promise<AdminEncore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-admin-'));
  const musicDir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-admin-music-'));
  const server = spawn(process.execPath, [path.join(here, '../server/dist/main.js'), 'serve'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: new URL(ADMIN_URL).port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: ADMIN_URL,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      ANALYSIS_ON_INGEST: 'false',
      MUSIC_FOLDERS: musicDir,
      MUSIC_WATCH: 'off',
      SIGNIN_LIMIT_PER_IP: '1000',
    },
  });
  let errors = '';
  server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const stop = async () => {
    await stopProcess(server);
    await rm(dataDir, { recursive: true, force: true });
    await rm(musicDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(`${ADMIN_URL}/api/health`, server, () => errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, musicDir, stop, linkFromOutbox: (email, pattern, timeoutMs) => linkFromOutbox(dataDir, email, pattern, timeoutMs) };
}

async function linkFromOutbox(dataDir: string, email: string, pathPattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const linkPattern = new RegExp(`https?://[^\\s"<>]+${pathPattern.source}[^\\s"<>]*`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = await readFile(path.join(outbox, file), 'utf8');
      if (!mail.includes(email)) continue;
      const match = linkPattern.exec(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${email} with a link matching ${pathPattern} in ${outbox}`);
}

async function waitForHealth(url: string, server: ChildProcess, errors: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the admin Encore server exited (${server.exitCode}): ${errors()}`);
    const ok = await fetch(url)
      .then((response) => response.status < 500 || response.status === 503)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the admin Encore server did not answer ${url} within ${timeoutMs} ms: ${errors()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
