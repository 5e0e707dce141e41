import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The address of the limits journey's Encore (the shared e2e server's port + 4). */
export const LIMITS_URL = `http://127.0.0.1:${Number(process.env['E2E_PORT'] ?? 8181) + 4}`;

/** Its per-user limits: low, so the journey reaches each with little (0.05 MB is 51.2 KB). */
export const LIMITS = { storageMb: '0.05', renders: '1', transcriptions: '1', aiPerMinute: '1' } as const;

/**
 * A second Encore of the built app, with low per-user limits, for the fair-shares journey only
 * (the shared server keeps the defaults every other journey relies on). Nothing works its jobs
 * (WORKER=off): a render or transcription once asked for stays waiting, holding its place.
 */
export async function startLimitsEncore(): Promise<{ stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-limits-'));
  const server = spawn(process.execPath, [path.join(here, '../server/dist/main.js'), 'serve'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: new URL(LIMITS_URL).port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: LIMITS_URL,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      ANALYSIS_ON_INGEST: 'false',
      WORKER: 'off',
      // Never called: nothing works the jobs.
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_API_URL: 'http://127.0.0.1:9/v1',
      USER_STORAGE_MB: LIMITS.storageMb,
      USER_MAX_RENDERS: LIMITS.renders,
      USER_MAX_TRANSCRIPTIONS: LIMITS.transcriptions,
      USER_AI_PER_MINUTE: LIMITS.aiPerMinute,
    },
  });
  let errors = '';
  server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const stop = async () => {
    await stopProcess(server);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(`${LIMITS_URL}/api/health`, server, () => errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

async function waitForHealth(url: string, server: ChildProcess, errors: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the limits Encore server exited (${server.exitCode}): ${errors()}`);
    const ok = await fetch(url)
      .then((response) => response.status < 500 || response.status === 503)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the limits Encore server did not answer ${url} within ${timeoutMs} ms: ${errors()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
