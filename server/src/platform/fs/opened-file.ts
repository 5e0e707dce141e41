import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { isErrno } from './errno.js';

/** A file opened for reading, with what the open descriptor itself says: where it really is, its size and times. */
export interface OpenedFile {
  handle: fs.FileHandle;
  /** The real path of the file the descriptor reads (links resolved), not of the name it was opened by. */
  realPath: string;
  stats: Stats;
}

/**
 * Opens `file` (following links) and tells which file was opened: the real path comes from the
 * descriptor (`/proc/self/fd/N` on Linux), so a link swapped in between a check and the open
 * cannot pass for the file that was checked. Where there is no `/proc`, the path's real path is
 * taken when it still names the opened file (same device and inode), else the open fails (ENOENT).
 */
export async function openFile(file: string): Promise<OpenedFile> {
  const handle = await fs.open(file, 'r');
  try {
    const stats = await handle.stat();
    return { handle, stats, realPath: await realPathOf(handle, file, stats) };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

async function realPathOf(handle: fs.FileHandle, file: string, stats: Stats): Promise<string> {
  try {
    return await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch (error) {
    if (!isErrno(error, 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EINVAL')) throw error;
  }
  const real = await fs.realpath(file);
  const again = await fs.stat(real);
  if (again.dev !== stats.dev || again.ino !== stats.ino) throw Object.assign(new Error(`${file} changed while it was opened`), { code: 'ENOENT' });
  return real;
}

/**
 * A path other programs (ffmpeg) can open that names the very file `handle` reads, whatever
 * happens to the name it was opened by: `/proc/<pid>/fd/N`. Undefined without `/proc`.
 */
export async function pathOfHandle(handle: fs.FileHandle): Promise<string | undefined> {
  const proc = `/proc/${process.pid}/fd/${handle.fd}`;
  try {
    await fs.readlink(proc);
    return proc;
  } catch {
    return undefined;
  }
}

/** Whether `file` is `folder` or below it (both real, absolute paths). */
export function isInsideFolder(folder: string, file: string): boolean {
  if (file === folder) return true;
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  return file.startsWith(base);
}
