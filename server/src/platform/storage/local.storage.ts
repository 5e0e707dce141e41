import { randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { holdErrors } from '../streams/hold-errors.js';
import { ConflictError, NotFoundError } from '../errors/app-errors.js';
import type { Logger } from '../logger.js';
import { fsyncDirectory, removeStaleTempFiles, stageFile, writeFileAtomic, type StagedFile } from '../fs/atomic-write.js';
import { isErrno } from '../fs/errno.js';
import { signedPath, verifySignedQuery, type LocalUrlClaims, type LocalUrlOp } from './local-url-signature.js';
import { assertValidContentType, assertValidKey, assertValidReadRange, resolveReadRange } from './storage-key.js';
import type { ListedObject, ReadRange, Storage, StoredObject } from './storage.types.js';

/** Where the lead mounts localStorageRoutes; signed URLs point below it. */
export const LOCAL_STORAGE_ROUTE_PREFIX = '/api/storage';

/** Sidecars live in a dot folder no key can name (key segments never start with a dot). */
const META_DIR = '.meta';

/**
 * Read size of a served object: 1 MiB instead of the default 64 KiB, so a song streams in a
 * sixteenth of the reads and socket writes (issue 14: a 10 MB song over loopback HTTP at 0.9
 * or more of `createReadStream`'s speed, against 0.5 with 64 KiB). Backpressure bounds each
 * stream's buffer to about one chunk, so a listener costs about 1 MiB while it downloads.
 */
const READ_CHUNK_BYTES = 1024 * 1024;

/** An object opened by `LocalStorage.open`. */
export interface OpenLocalObject {
  size: number;
  contentType: string | undefined;
  /** Streams the whole object or a resolved range of it, and closes the file when done. */
  read(range?: { start: number; end: number }): Readable;
  close(): Promise<void>;
}

export interface LocalStorageOptions {
  root: string;
  signingSecret: string;
  /** Absolute origin to prefix URLs with; relative URLs when absent. */
  publicBaseUrl?: string;
  maxUploadBytes: number;
  logger: Logger;
}

interface Sidecar {
  contentType?: string;
}

/**
 * Files under one root folder, `<root>/<key>`, with the content type in a JSON sidecar at
 * `<root>/.meta/<key>.json`. Browsers reach the bytes through URLs signed with HMAC-SHA256
 * and served by localStorageRoutes.
 */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly root: string;
  readonly maxUploadBytes: number;
  private readonly signingSecret: string;
  private readonly urlBase: string;
  private readonly logger: Logger;

  private constructor(options: LocalStorageOptions) {
    this.root = path.resolve(options.root);
    this.maxUploadBytes = options.maxUploadBytes;
    this.signingSecret = options.signingSecret;
    this.urlBase = `${(options.publicBaseUrl ?? '').replace(/\/+$/, '')}${LOCAL_STORAGE_ROUTE_PREFIX}`;
    this.logger = options.logger;
  }

  static async create(options: LocalStorageOptions): Promise<LocalStorage> {
    const storage = new LocalStorage(options);
    await fs.mkdir(storage.root, { recursive: true });
    return storage;
  }

  async presignPut(key: string, opts: { contentType?: string; expiresInSeconds: number }): Promise<string> {
    const claims: LocalUrlClaims = { op: 'put', key: assertValidKey(key), exp: expiry(opts.expiresInSeconds) };
    if (opts.contentType !== undefined) claims.contentType = assertValidContentType(opts.contentType);
    return signedPath(this.urlBase, this.signingSecret, claims);
  }

  async presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; contentType?: string }): Promise<string> {
    const claims: LocalUrlClaims = { op: 'get', key: assertValidKey(key), exp: expiry(opts.expiresInSeconds) };
    if (opts.contentType !== undefined) claims.contentType = assertValidContentType(opts.contentType);
    if (opts.downloadName !== undefined) claims.downloadName = opts.downloadName;
    return signedPath(this.urlBase, this.signingSecret, claims);
  }

  /** For the routes: the claims of a signed request, or ForbiddenError. */
  verify(op: LocalUrlOp, key: string, query: Record<string, unknown>): LocalUrlClaims {
    return verifySignedQuery(this.signingSecret, op, key, query);
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; maxBytes?: number } = {}): Promise<void> {
    // Read only after the folders are made: its failure meanwhile fails the write instead.
    if (body instanceof Readable) holdErrors(body);
    const file = this.objectPath(key);
    const contentType = assertValidContentType(opts.contentType);
    const sidecar = contentType === undefined ? undefined : this.sidecarPath(key);
    await Promise.all([this.mkdirFor(file), sidecar === undefined ? undefined : this.mkdirFor(sidecar)]);
    // The bytes and their sidecar are written and fsynced side by side (one wait, not two).
    const staging = await Promise.allSettled([
      stageFile(file, body, opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes }),
      sidecar === undefined ? undefined : stageFile(sidecar, JSON.stringify({ contentType })),
    ]);
    const staged = staging.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
    const failed = staging.find((result) => result.status === 'rejected');
    try {
      if (failed) throw failed.reason;
      const [bytes, meta] = staged as [StagedFile, StagedFile | undefined];
      // The sidecar first: once the bytes are renamed into place their type is already right.
      if (meta) await meta.commit({ syncDirectory: false });
      else await removeFile(this.sidecarPath(key));
      await bytes.commit({ syncDirectory: false });
      await Promise.all([fsyncDirectory(path.dirname(file)), sidecar === undefined ? undefined : fsyncDirectory(path.dirname(sidecar))]);
      this.logger.debug({ key, bytes: bytes.bytes }, 'stored object');
    } catch (error) {
      await Promise.all(staged.map((file) => file.discard()));
      throw clashAsConflict(error);
    }
  }

  async get(key: string, range?: ReadRange): Promise<StoredObject> {
    assertValidReadRange(range);
    const object = await this.open(key);
    try {
      const resolved = range === undefined ? undefined : resolveReadRange(range, object.size);
      const stream = object.read(resolved);
      const { size, contentType } = object;
      return resolved === undefined ? { stream, size, contentType } : { stream, size, contentType, range: resolved };
    } catch (error) {
      await object.close();
      throw error;
    }
  }

  /**
   * One open of the object for the signed-URL route: its size (from the open file, so a
   * concurrent replace cannot mismatch size and bytes), its content type unless the caller
   * already knows it (`contentType: false` skips the sidecar read), and a stream of any range of
   * it. The caller either reads (the stream closes the file) or closes.
   */
  async open(key: string, options: { contentType?: boolean } = {}): Promise<OpenLocalObject> {
    return openLocalFile(this.objectPath(key), async () => (options.contentType === false ? undefined : (await this.readSidecar(key)).contentType));
  }

  async stat(key: string): Promise<{ size: number; contentType: string | undefined } | null> {
    const file = this.objectPath(key);
    try {
      const info = await fs.stat(file);
      if (!info.isFile()) return null;
      const { contentType } = await this.readSidecar(key);
      return { size: info.size, contentType };
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    const file = this.objectPath(key);
    if (!(await isFile(file))) throw new NotFoundError();
    return use(file);
  }

  async delete(key: string): Promise<void> {
    const file = this.objectPath(key);
    await removeFile(file);
    await removeFile(this.sidecarPath(key));
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.objectPath(from);
    const target = this.objectPath(to);
    if (source === target) throw new ConflictError('That storage key is already taken.');
    await this.mkdirFor(target);
    // A hard link never replaces an existing target and names the source's inode: a replayed
    // upload renames a new file over the source, which leaves this inode (and target) alone.
    await linkOrCopy(source, target);
    try {
      // The moved object counts as new from now on, for clean-up's grace period.
      const now = new Date();
      await fs.utimes(target, now, now);
      await this.linkSidecar(from, to);
      // Both new names made durable at once.
      await Promise.all([fsyncDirectory(path.dirname(target)), fsyncDirectory(path.dirname(this.sidecarPath(to)))]);
    } catch (error) {
      await removeFile(target);
      throw error;
    }
    await this.delete(from);
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    const start = prefix.replace(/\/+$/, '');
    const dir = start === '' ? this.root : this.below(this.root, assertValidKey(start));
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      // Temp files and the sidecar folder start with a dot, which no key segment may.
      if (key.split('/').some((segment) => segment.startsWith('.'))) continue;
      try {
        const info = await fs.stat(path.join(entry.parentPath, entry.name));
        yield { key, size: info.size, lastModified: info.mtime };
      } catch (error) {
        if (!isErrno(error, 'ENOENT')) throw error;
      }
    }
  }

  removeStaleTempFiles(olderThan: Date): Promise<number> {
    return removeStaleTempFiles(this.root, olderThan);
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    const probe = path.join(this.root, `.probe-${randomBytes(6).toString('hex')}`);
    await fs.writeFile(probe, 'ok');
    await fs.rm(probe, { force: true });
  }

  private objectPath(key: string): string {
    return this.below(this.root, assertValidKey(key));
  }

  private sidecarPath(key: string): string {
    return this.below(path.join(this.root, META_DIR), `${assertValidKey(key)}.json`);
  }

  /** Validated keys cannot escape; this check keeps it so if the rules ever loosen. */
  private below(base: string, relative: string): string {
    const full = path.resolve(base, ...relative.split('/'));
    if (!full.startsWith(base + path.sep)) throw new Error(`storage path escapes its root: ${relative}`);
    return full;
  }

  private async mkdirFor(file: string): Promise<void> {
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
    } catch (error) {
      throw clashAsConflict(error);
    }
  }

  private async writeSidecar(key: string, sidecar: Sidecar): Promise<void> {
    const file = this.sidecarPath(key);
    if (sidecar.contentType === undefined) {
      await removeFile(file);
      return;
    }
    await this.mkdirFor(file);
    await writeFileAtomic(file, JSON.stringify(sidecar));
  }

  /** The moved object's sidecar: a hard link to the source's (one call; the caller fsyncs its folder), else a fresh write. */
  private async linkSidecar(from: string, to: string): Promise<void> {
    const target = this.sidecarPath(to);
    await this.mkdirFor(target);
    try {
      // Made durable by the caller, with the object's own link.
      await fs.link(this.sidecarPath(from), target);
    } catch (error) {
      // No sidecar to link (no content type), a stale one a crash left at the target, or a disk
      // without hard links: what the source says is written as usual.
      if (!isErrno(error, 'ENOENT', 'EEXIST', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS')) throw error;
      await this.writeSidecar(to, await this.readSidecar(from));
    }
  }

  private async readSidecar(key: string): Promise<Sidecar> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.sidecarPath(key), 'utf8'));
      const contentType = (parsed as Sidecar | null)?.contentType;
      return typeof contentType === 'string' ? { contentType } : {};
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return {};
      this.logger.warn({ key, err: error }, 'unreadable storage sidecar; content type unknown');
      return {};
    }
  }
}

/**
 * One open of a file on this machine, for a signed-URL route or a reader: its size (from the open
 * file, so a concurrent replace cannot mismatch size and bytes), its content type, and a stream of
 * any range of it that closes the file when done. NotFoundError when it is missing or not a file.
 */
export async function openLocalFile(file: string, contentType: () => Promise<string | undefined>): Promise<OpenLocalObject> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EISDIR')) throw new NotFoundError();
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotFoundError();
    return await openedObject(handle, info.size, contentType);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** An object over a file already opened (and checked) by the caller; closing it closes `handle`. */
export async function openedObject(handle: fs.FileHandle, size: number, contentType: () => Promise<string | undefined>): Promise<OpenLocalObject> {
  return {
    size,
    contentType: await contentType(),
    read: (range) => createReadStream('', { fd: handle, highWaterMark: READ_CHUNK_BYTES, ...(range ?? {}) }),
    close: () => handle.close(),
  };
}

function expiry(expiresInSeconds: number): number {
  return Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
}

/** Filesystems without hard links (some network mounts) get an exclusive copy instead. */
async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await fs.link(source, target);
    return;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) throw new ConflictError('That storage key is already taken.');
    if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EISDIR', 'EPERM')) {
      // EPERM is also what Linux answers for a directory source; a missing source is the usual case.
      if (!(await isFile(source))) throw new NotFoundError();
      if (!isErrno(error, 'EPERM')) throw error;
    } else if (!isErrno(error, 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS')) {
      throw error;
    }
  }
  try {
    // COPYFILE_EXCL: never over an existing target. The copy reads one open inode, so a
    // replay renamed over the source meanwhile does not mix into it.
    await fs.copyFile(source, target, fsConstants.COPYFILE_EXCL);
  } catch (error) {
    if (isErrno(error, 'EEXIST')) throw new ConflictError('That storage key is already taken.');
    if (isErrno(error, 'ENOENT')) throw new NotFoundError();
    await removeFile(target);
    throw error;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function removeFile(file: string): Promise<void> {
  try {
    await fs.rm(file, { force: true });
  } catch (error) {
    // A missing object under a file, or a "file" that is really a folder of other keys.
    if (!isErrno(error, 'ENOTDIR', 'EISDIR', 'ERR_FS_EISDIR')) throw error;
  }
}

/** `a` and `a/b` cannot both exist on a disk; S3 would allow it, so say so clearly. */
function clashAsConflict(error: unknown): unknown {
  if (isErrno(error, 'ENOTDIR', 'EISDIR', 'EEXIST')) {
    return new ConflictError('That storage key clashes with an existing one.');
  }
  return error;
}
