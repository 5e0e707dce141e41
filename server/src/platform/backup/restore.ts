import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip, type Gunzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_VERSION, DATABASE_ENTRY, MANIFEST_NAME, type BackupManifest } from './backup.js';
import { placeTarEntry, readTar, type TarEntry, type TarSink } from './tar-archive.js';

/** The archive cannot be restored here (not empty, not a backup, damaged); nothing was kept. */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Files written below DATA_DIR (the database's own among them). */
  files: number;
}

/**
 * Unpacks the archive `file` into `dataDir`, which must be empty or absent: the database
 * folder into `db`, stored objects into `media`, the secret into `secrets`. On any failure
 * what was written is removed again, leaving `dataDir` as empty as it was.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const existing = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (existing.length > 0)
    throw new RestoreError(`${dataDir} is not empty: restore only into an empty data folder (move the old one aside, or set DATA_DIR to a new folder).`);
  await mkdir(dataDir, { recursive: true });
  try {
    return await unpack(file, dataDir);
  } catch (error) {
    for (const name of await readdir(dataDir).catch(() => [] as string[])) await rm(path.join(dataDir, name), { recursive: true, force: true });
    if (error instanceof RestoreError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RestoreError(`${file} could not be restored: ${reason}`);
  }
}

async function unpack(file: string, dataDir: string): Promise<RestoreResult> {
  let manifest: BackupManifest | undefined;
  let files = 0;
  let databaseFiles = 0;
  const source = gunzipped(file);
  await readTar(source, async (entry) => {
    if (!manifest) {
      if (entry.name !== MANIFEST_NAME || entry.type !== 'file' || entry.size > 1_000_000) throw new RestoreError(`${file} is not an Encore backup.`);
      return collect((text) => (manifest = parseManifest(text, file)));
    }
    if (entry.name === DATABASE_ENTRY) {
      // The database folder's own tar, unpacked as it streams by.
      return pipeInto(async (chunks) => {
        databaseFiles = await readTar(chunks, (inner) => place(path.join(dataDir, 'db'), inner.name, inner));
      });
    }
    const [top] = entry.name.split('/');
    if (top !== 'media' && top !== 'secrets') return undefined;
    const handle = await place(dataDir, entry.name, entry);
    if (handle) files += 1;
    return handle;
  });
  if (!manifest) throw new RestoreError(`${file} is empty.`);
  return { manifest, files: files + databaseFiles };
}

/** The manifest of the archive `file` (its first entry), read without unpacking the rest. */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  let manifest: BackupManifest | undefined;
  const stop = new Error('manifest read');
  const stream = gunzipped(file);
  try {
    await readTar(stream, async (entry) => {
      if (manifest) throw stop;
      if (entry.name !== MANIFEST_NAME || entry.type !== 'file' || entry.size > 1_000_000) throw new RestoreError(`${file} is not an Encore backup.`);
      return collect((text) => (manifest = parseManifest(text, file)));
    });
  } catch (error) {
    if (error !== stop) throw error;
  } finally {
    stream.destroy();
  }
  if (!manifest) throw new RestoreError(`${file} is empty.`);
  return manifest;
}

function parseManifest(text: string, file: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RestoreError(`${file} is not an Encore backup.`);
  }
  const manifest = value as Partial<BackupManifest>;
  if (manifest.format !== BACKUP_FORMAT || typeof manifest.version !== 'number') throw new RestoreError(`${file} is not an Encore backup.`);
  if (manifest.version > BACKUP_VERSION)
    throw new RestoreError(`${file} was made by a newer Encore (backup format ${manifest.version}): restore it with that version.`);
  return manifest as BackupManifest;
}

/** Creates the folder or file `name` below `root`; a name leading out of `root` is refused. */
function place(root: string, name: string, entry: TarEntry): Promise<TarSink | undefined> {
  return placeTarEntry(root, name, entry, (message) => new RestoreError(message));
}

/** A sink whose writes feed `use` as a stream of chunks (a nested tar, a manifest), as they come. */
function pipeInto(use: (chunks: AsyncIterable<Buffer>) => Promise<void>): Promise<TarSink> {
  const queue: Buffer[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let drained: (() => void) | undefined;
  const chunks: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = queue.shift();
        if (next) {
          if (queue.length === 0) drained?.();
          yield next;
        } else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const done = use(chunks);
  // An error of `use` surfaces at the next write or at close.
  done.catch(() => undefined);
  return Promise.resolve({
    async write(chunk: Buffer) {
      queue.push(Buffer.from(chunk));
      wake?.();
      wake = undefined;
      if (queue.length > 8) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), done]);
    },
    async close() {
      ended = true;
      wake?.();
      await done;
    },
  });
}

function collect(use: (text: string) => void): Promise<TarSink> {
  return pipeInto(async (chunks) => {
    const parts: Buffer[] = [];
    for await (const chunk of chunks) parts.push(chunk);
    use(Buffer.concat(parts).toString('utf8'));
  });
}

/** The archive's bytes, unzipped. A read or gzip error ends the unzipped stream with it, so the reader sees it. */
function gunzipped(file: string): Gunzip {
  const gunzip = createGunzip();
  pipeline(createReadStream(file), gunzip).catch(() => undefined);
  return gunzip;
}
