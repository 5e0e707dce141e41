import { randomBytes } from 'node:crypto';
import { createWriteStream, type Dirent, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { holdErrors } from '../streams/hold-errors.js';
import { createByteLimit, fileTooLargeError } from './byte-limit.js';
import { isErrno } from './errno.js';
import { isGone, OWNER_TAG_PATTERN, ownerTag } from './process-owner.js';

/**
 * Crash-safe file writes: the bytes go to a dot-prefixed temp file beside the target, are
 * fsynced, and only then renamed over the target (and the directory fsynced), so a reader
 * sees either the old file or the whole new one, never a torn one.
 */
export interface AtomicWriteOptions {
  /** Abort with PayloadTooLargeError once more than this many bytes arrive. */
  maxBytes?: number;
  /** File mode for the new file (before umask). Default 0o644. */
  mode?: number;
}

/** Bytes written to a temp file, not yet visible at the target. */
export interface StagedFile {
  readonly bytes: number;
  /**
   * Rename over the target and fsync the directory. `syncDirectory: false` leaves that fsync
   * to the caller, who makes several renames in one directory (or several) durable at once.
   */
  commit(options?: { syncDirectory?: boolean }): Promise<void>;
  /** Remove the temp file; safe to call more than once. */
  discard(): Promise<void>;
}

export type FileBody = Buffer | string | Readable;

export async function writeFileAtomic(target: string, body: FileBody, options: AtomicWriteOptions = {}): Promise<number> {
  const staged = await stageFile(target, body, options);
  try {
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  return staged.bytes;
}

/**
 * The name of an atomic write's temp file: `.<16 hex>.<owner>.tmp`, the owner being the writing
 * process (process-owner.ts), so a sweep can tell them apart and knows whose each is. Files of
 * writers from before owners were named are `.<16 hex>.tmp`.
 */
const TEMP_FILE = new RegExp(`^\\.[0-9a-f]{16}(?:\\.${OWNER_TAG_PATTERN})?\\.tmp$`);

export function isAtomicTempFile(name: string): boolean {
  return TEMP_FILE.test(name);
}

/** True for a temp file whose writer is known to be gone (a killed process): it is no one's any more. */
function writerIsGone(name: string): boolean {
  const match = TEMP_FILE.exec(name);
  if (!match?.[1]) return false;
  return isGone({ host: match[1], pid: Number(match[2]), instance: match[3] as string });
}

/** Writes body to a temp file in target's directory; on any error nothing is left behind. */
export async function stageFile(target: string, body: FileBody, options: AtomicWriteOptions = {}): Promise<StagedFile> {
  const dir = path.dirname(target);
  const tempPath = path.join(dir, `.${randomBytes(8).toString('hex')}.${ownerTag()}.tmp`);
  const bytes = await writeNewFile(tempPath, body, { ...options, sync: true });
  return {
    bytes,
    discard: () => fs.rm(tempPath, { force: true }),
    async commit({ syncDirectory = true } = {}) {
      await fs.rename(tempPath, target);
      if (syncDirectory) await fsyncDirectory(dir);
    },
  };
}

/**
 * Creates filePath (which must not exist yet) with body's bytes and returns their count.
 * On any error, including going over maxBytes, the file is removed before this rejects.
 */
export async function writeNewFile(filePath: string, body: FileBody, options: AtomicWriteOptions & { sync?: boolean } = {}): Promise<number> {
  const { maxBytes, sync = false } = options;
  // Read only once the file is open: its failure meanwhile fails the write instead.
  if (body instanceof Readable) holdErrors(body);
  if (maxBytes !== undefined && !(body instanceof Readable) && Buffer.byteLength(body) > maxBytes) {
    throw fileTooLargeError(maxBytes);
  }
  // The file is created before any byte is read, so cleanup after a failure can never race
  // a late open that would leave an orphan behind.
  const handle = await fs.open(filePath, 'wx', options.mode ?? 0o644);
  try {
    if (!(body instanceof Readable)) {
      try {
        await handle.writeFile(body);
        if (sync) await handle.sync();
      } finally {
        await handle.close();
      }
      return Buffer.byteLength(body);
    }
    const limiter = createByteLimit(maxBytes ?? Number.POSITIVE_INFINITY);
    const out = createWriteStream('', { fd: handle, flush: sync });
    try {
      await pipeline(body, limiter, out);
    } catch (error) {
      await closed(out);
      throw error;
    }
    return limiter.bytes;
  } catch (error) {
    await fs.rm(filePath, { force: true });
    throw error;
  }
}

function closed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once('close', () => resolve());
  });
}

/** Makes a rename durable. Platforms that cannot open a directory (Windows) skip it. */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(dir, 'r');
  } catch (error) {
    if (isErrno(error, 'EISDIR', 'EPERM', 'EACCES')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!isErrno(error, 'EINVAL', 'EPERM', 'EBADF')) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Removes the temp files that writes interrupted by a crash (kill -9, power loss) left under
 * `dir`, at any depth: those whose writing process is known to be gone, whatever their age, and
 * those last written before `olderThan` (a writer on another machine cannot be asked; a write
 * in progress keeps touching its temp file, so a cut-off a little in the past never hits a
 * live one). Returns how many were removed; a missing folder has none.
 */
export async function removeStaleTempFiles(dir: string, olderThan: Date): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR')) return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !isAtomicTempFile(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (!writerIsGone(entry.name) && (await fs.stat(file)).mtime >= olderThan) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    } catch (error) {
      // Committed or discarded meanwhile: nothing to do.
      if (!isErrno(error, 'ENOENT')) throw error;
    }
  }
  return removed;
}
