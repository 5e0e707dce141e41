import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The address of a journey's own Encore: the shared e2e server's port plus `offset`. */
export function ownEncoreUrl(offset: number): string {
  return `http://127.0.0.1:${Number(process.env['E2E_PORT'] ?? 8181) + offset}`;
}

export interface OwnEncore {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * An Encore of the built app with a data folder of its own, for a journey that needs settings
 * the shared e2e server cannot have (a fresh first account, low limits, single sign-on). It
 * answers on 127.0.0.1 at `baseUrl`; `stop` ends it, then runs `cleanUp` and removes its data.
 */
export async function startOwnEncore(options: {
  /** Names it in errors and in its data folder's name. */
  name: string;
  baseUrl: string;
  env: Record<string, string>;
  cleanUp?: () => Promise<void>;
}): Promise<OwnEncore> {
  const { name, baseUrl } = options;
  const dataDir = await mkdtemp(path.join(tmpdir(), `encore-e2e-${name}-`));
  const server = spawn(process.execPath, [path.join(here, '../server/dist/main.js'), 'serve'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: new URL(baseUrl).port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      ...options.env,
    },
  });
  let errors = '';
  server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const stop = async () => {
    await stopProcess(server);
    await options.cleanUp?.();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(name, `${baseUrl}/api/health`, server, () => errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, stop };
}

async function waitForHealth(name: string, url: string, server: ChildProcess, errors: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the ${name} Encore server exited (${server.exitCode}): ${errors()}`);
    // 503 is an answer too: health says so while a dependency (a music folder, a provider) is not ready.
    const ok = await fetch(url)
      .then((response) => response.status < 500 || response.status === 503)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the ${name} Encore server did not answer ${url} within ${timeoutMs} ms: ${errors()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
