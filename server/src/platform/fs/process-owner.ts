import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who made a temp file or folder, so that a later process can tell the leftovers of a killed
 * one (kill -9, the OOM killer: nothing cleans up) from the work of a live one, whatever their
 * age. A process id means something only on its own machine, and is reused: after a restart in
 * a container the new process often has the old one's id (1), so each process also draws an
 * instance id of its own.
 */
export interface ProcessOwner {
  host: string;
  pid: number;
  instance: string;
}

export const THIS_PROCESS: ProcessOwner = {
  host:
    hostname()
      .replace(/[^A-Za-z0-9-]/g, '-')
      .slice(0, 63) || 'host',
  pid: process.pid,
  instance: randomBytes(4).toString('hex'),
};

/** `<host>.<pid>.<instance>`: fits in a file name. */
export function ownerTag(owner: ProcessOwner = THIS_PROCESS): string {
  return `${owner.host}.${owner.pid}.${owner.instance}`;
}

/** An owner tag inside a larger pattern, its three parts captured. */
export const OWNER_TAG_PATTERN = '([A-Za-z0-9-]{1,63})\\.(\\d{1,10})\\.([0-9a-f]{8})';

export function parseOwnerTag(tag: string): ProcessOwner | undefined {
  const match = new RegExp(`^${OWNER_TAG_PATTERN}$`).exec(tag);
  if (!match) return undefined;
  return { host: match[1] as string, pid: Number(match[2]), instance: match[3] as string };
}

/**
 * True when the owner is known to be gone: a process of this machine that is not running, or
 * an earlier process whose id this one now has. Another machine's process cannot be asked
 * (false): its leftovers go by their age.
 */
export function isGone(owner: ProcessOwner): boolean {
  if (owner.host !== THIS_PROCESS.host) return false;
  if (owner.pid === THIS_PROCESS.pid) return owner.instance !== THIS_PROCESS.instance;
  return !isRunning(owner.pid);
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

export function readProcFile(pid: number, name: string): string | undefined {
  try {
    // Synchronous on purpose: a tiny kernel file, read between a check and a kill.
    return readFileSync(`/proc/${pid}/${name}`, 'latin1');
  } catch {
    return undefined;
  }
}
