import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, until } from '../support/worker-process.js';

/**
 * `main.ts serve` as a container runs it: SIGTERM (docker stop) closes it cleanly (exit 0, the
 * embedded database's lock and the control socket gone), and it starts again on the same data.
 * Its JSON log lines carry each request's id, the one its answer names.
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface Served {
  child: ChildProcess;
  lines: () => Record<string, unknown>[];
  exited: Promise<number | null>;
}

async function serve(dataDir: string, port: number): Promise<Served> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(SERVER_DIR, 'src/main.ts'), 'serve'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ANALYSIS_BACKFILL: 'false',
      ANALYSIS_ON_INGEST: 'false',
      MUSIC_WATCH: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  await until(() => lines().some((line) => String(line['msg']).startsWith('Encore is ready')) || child.exitCode !== null);
  if (child.exitCode !== null) throw new Error(`serve exited: ${out}`);
  return { child, lines, exited };
}

describe('serve in its own process', () => {
  let dataDir: string;
  let served: Served | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'encore-stop-'));
  });
  afterAll(async () => {
    if (served) await killHard(served.child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops cleanly on SIGTERM and starts again on the same data, with request ids in its log', async () => {
    const port = await freePort();
    served = await serve(dataDir, port);
    const base = `http://127.0.0.1:${port}`;
    const signUp = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'signup-request-1' },
      body: JSON.stringify({ userName: 'kept', email: 'kept@example.com', password: 'kept password 1' }),
    });
    expect(signUp.status).toBeLessThan(300);
    expect(signUp.headers.get('x-request-id')).toBe('signup-request-1');
    // (Health checks log at warn only: a path logged at info.)
    const other = await fetch(`${base}/api/no-such-thing`);
    const otherId = other.headers.get('x-request-id');
    expect(otherId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => served!.lines().some((line) => line['reqId'] === otherId && line['msg'] === 'request completed') || served!.child.exitCode !== null);
    expect(served.lines().some((line) => line['reqId'] === otherId && line['msg'] === 'request completed')).toBe(true);
    expect(served.lines().filter((line) => line['reqId'] === 'signup-request-1').length).toBeGreaterThanOrEqual(2);
    // The sign-up's e-mail is written by a job: its line carries the job's id and queue.
    await until(() => served!.lines().some((line) => line['msg'] === 'mail written to outbox') || served!.child.exitCode !== null);
    const mailLine = served.lines().find((line) => line['msg'] === 'mail written to outbox');
    expect(mailLine?.['jobId']).toMatch(/^[0-9a-f-]{36}$/);
    expect(mailLine?.['queue']).toBe('mail.send');
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'control.sock'))).toBe(true);

    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'control.sock'))).toBe(false);

    served = await serve(dataDir, port);
    const signIn = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'kept', password: 'kept password 1' }),
    });
    expect(signIn.status).toBe(200);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    served = undefined;
  }, 600_000);
});
