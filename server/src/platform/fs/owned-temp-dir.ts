import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isGone, isRunning, ownerTag, parseOwnerTag, readProcFile, type ProcessOwner } from './process-owner.js';

/**
 * Private temp folders (`<root>/encore-<purpose>-XXXXXX`, the machine's temp folder by default)
 * that name the process working in them, and the child processes it started there. A process
 * killed mid-work cannot clean up, and a child it started (an ffmpeg) is not killed with it:
 * that orphan keeps writing into the folder. Any later process tells such a folder by its gone
 * owner, stops the orphan and removes the folder: at start, hourly, and wherever a feature
 * sweeps before its own work.
 */
const OWNER_FILE = 'owner';
const CHILD_FILE = 'encoder.pid';
const OWNED_DIR = /^encore-[a-z0-9-]+-[A-Za-z0-9]{6}$/;

export async function makeOwnedTempDir(purpose: string, root = tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(root, `encore-${purpose}-`));
  await writeFile(path.join(dir, OWNER_FILE), ownerTag());
  return dir;
}

/** Notes the child process working in the folder, to be stopped should its owner die. */
export async function recordChildProcess(dir: string, pid: number | undefined): Promise<void> {
  if (pid !== undefined) await writeFile(path.join(dir, CHILD_FILE), String(pid));
}

export interface OwnedDirSweep {
  /** Folders of these purposes only (all when absent). */
  purposes?: readonly string[];
  /** A folder of a live owner untouched since then is a leftover too (its process id reused by another program). */
  staleBefore: Date;
  root?: string;
}

/** Removes the owned temp folders whose owner is gone (or stale ones); returns those removed. */
export async function sweepOwnedTempDirs(options: OwnedDirSweep): Promise<string[]> {
  const root = options.root ?? tmpdir();
  const prefixes = options.purposes?.map((purpose) => `encore-${purpose}-`);
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!OWNED_DIR.test(name) || (prefixes && !prefixes.some((prefix) => name.startsWith(prefix)))) continue;
    const dir = path.join(root, name);
    // Without its owner a folder is being made, or (a sweep of all purposes) may be no such
    // folder: only a sweep of its own purposes takes it, once stale.
    const owner = await readOwner(dir);
    if (!owner && !prefixes) continue;
    const touched = await lastTouched(dir);
    if (touched === undefined) continue;
    if (!(owner && isGone(owner)) && touched >= options.staleBefore) continue;
    const child = await readPid(path.join(dir, CHILD_FILE));
    if (child !== undefined && isChildOf(child, dir)) killQuietly(child);
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** `<tag>`, or `<host> <pid>` as folders made before instance ids say it. */
async function readOwner(dir: string): Promise<ProcessOwner | undefined> {
  const text = (await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => '')).trim();
  const tagged = parseOwnerTag(text);
  if (tagged) return tagged;
  const [host, pid] = text.split(' ');
  const id = Number(pid);
  return host && Number.isInteger(id) && id > 1 ? { host: host.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 63), pid: id, instance: '' } : undefined;
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

/** The newest write in the folder (an encode or an upload in progress keeps it fresh). */
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

/**
 * Only a process whose command line names this folder is killed: a process id may have been
 * reused. Where there is no /proc to ask (not Linux), none is.
 */
function isChildOf(pid: number, dir: string): boolean {
  if (!isRunning(pid)) return false;
  const commandLine = readProcFile(pid, 'cmdline');
  return commandLine !== undefined && commandLine.split('\0').some((arg) => arg.includes(`${dir}${path.sep}`));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}
