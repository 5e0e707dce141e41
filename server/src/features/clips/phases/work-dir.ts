import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A render's private temp folder names the process rendering in it and the ffmpeg it runs.
 * A process killed mid-render (kill -9, the OOM killer) cannot clean up, and the ffmpeg it
 * started is not killed with it: that orphan keeps encoding into the folder. A later process
 * tells such a folder by its dead owner, stops the orphan and removes the folder (before each
 * render, so a retried render never runs beside its own ghost, and hourly).
 */
const PREFIX = 'encore-clip-render-';
/** `<host> <pid>`: a process id means something only on its own machine (or container). */
const OWNER_FILE = 'owner';
const ENCODER_FILE = 'encoder.pid';

export async function makeWorkDir(root = tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(root, PREFIX));
  await writeFile(path.join(dir, OWNER_FILE), `${hostname()} ${process.pid}`);
  return dir;
}

/** Notes the encoding ffmpeg's process id in the folder. */
export async function recordEncoder(workDir: string, pid: number | undefined): Promise<void> {
  if (pid !== undefined) await writeFile(path.join(workDir, ENCODER_FILE), String(pid));
}

/**
 * Removes the render folders under `root` whose owning process is gone, first killing the
 * encoder it left running; and those of a live owner untouched since `staleBefore` (the
 * process id reused by another program). Returns the folders removed.
 */
export async function sweepDeadWorkDirs(options: { staleBefore: Date; root?: string }): Promise<string[]> {
  const root = options.root ?? tmpdir();
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(root, name);
    const owner = await readOwner(dir);
    const touched = await lastTouched(dir);
    if (touched === undefined) continue;
    // A folder without its owner yet is being made, and another machine's process cannot be
    // asked: only an old one is a leftover.
    const ownerGone = owner !== undefined && owner.host === hostname() && !isRunning(owner.pid);
    const dead = ownerGone || touched < options.staleBefore;
    if (!dead) continue;
    const encoder = await readPid(path.join(dir, ENCODER_FILE));
    if (encoder !== undefined && (await isEncoderOf(encoder, dir))) killQuietly(encoder);
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

async function readOwner(dir: string): Promise<{ host: string; pid: number } | undefined> {
  const [host, pid] = (await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => '')).trim().split(' ');
  const id = Number(pid);
  return host && Number.isInteger(id) && id > 1 ? { host, pid: id } : undefined;
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

/** The newest write in the folder (an encode in progress keeps its output fresh). */
async function lastTouched(dir: string): Promise<Date | undefined> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  let newest = info.mtime;
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const file = await stat(path.join(dir, entry)).catch(() => undefined);
    if (file && file.mtime > newest) newest = file.mtime;
  }
  return newest;
}

/** Alive and not a zombie (a dead process its parent has not reaped yet). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !/^\d+ \(.*\) Z /s.test(readProcFile(pid, 'stat') ?? '');
}

/**
 * Only a process whose command line names this folder is killed: a process id may have been
 * reused. Where there is no /proc to ask (not Linux), none is.
 */
async function isEncoderOf(pid: number, dir: string): Promise<boolean> {
  if (!isRunning(pid)) return false;
  const commandLine = readProcFile(pid, 'cmdline');
  return commandLine !== undefined && commandLine.split('\0').some((arg) => arg.includes(`${dir}${path.sep}`));
}

function readProcFile(pid: number, name: string): string | undefined {
  try {
    // Synchronous on purpose: a tiny kernel file, read between a check and a kill.
    return readFileSync(`/proc/${pid}/${name}`, 'latin1');
  } catch {
    return undefined;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}
