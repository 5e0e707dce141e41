import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real `main.ts worker` process for crash tests (lyrics and clips), as a deployment runs it, and a
 * look at the processes it starts (Linux /proc).
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  stderr(): string;
}

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(SERVER_DIR, 'src/main.ts'), 'worker'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env['PATH'] ?? '', ...(process.env['FFMPEG_PATH'] ? { FFMPEG_PATH: process.env['FFMPEG_PATH'] } : {}), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { child, stderr: () => text };
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The processes whose parent is `parentPid`, with their arguments. */
export async function childrenOf(parentPid: number): Promise<{ pid: number; args: string[] }[]> {
  const found: { pid: number; args: string[] }[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'latin1');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parentPid) continue;
      found.push({ pid: Number(name), args: (await readFile(`/proc/${name}/cmdline`, 'latin1')).split('\0').filter(Boolean) });
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/** Alive and not a zombie. */
export async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** Polls until `done` holds; the test's own time limit bounds it. */
export async function until(done: () => boolean | Promise<boolean>, whileWaiting?: () => void): Promise<void> {
  while (!(await done())) {
    whileWaiting?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
