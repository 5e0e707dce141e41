import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ForbiddenError, NotFoundError } from '../errors/app-errors.js';
import { isErrno } from '../fs/errno.js';
import { openFile, pathOfHandle, type OpenedFile } from '../fs/opened-file.js';
import { makeOwnedTempDir } from '../fs/owned-temp-dir.js';
import type { Logger } from '../logger.js';
import { LocalStorage, LOCAL_STORAGE_ROUTE_PREFIX, openedObject, type OpenLocalObject } from './local.storage.js';
import { signedPath, verifySignedQuery, type LocalUrlClaims, type LocalUrlOp } from './local-url-signature.js';
import { assertValidContentType, assertValidKey, assertValidReadRange, resolveReadRange } from './storage-key.js';
import type { ListedObject, ReadRange, Storage, StoredObject } from './storage.types.js';

/** A file outside storage that a key names (a song in a music folder). */
export interface MountedFile {
  path: string;
  contentType: string;
  /**
   * Whether the file opened by `path` (links resolved, as the open descriptor tells) may be read:
   * the owner checks that it is where it may be and that it is the file it knows. Asked on every
   * open, before a byte is read; a refusal reads as a missing file.
   */
  accept?: (opened: OpenedFile) => Promise<boolean>;
}

/** Resolves the keys below one prefix to files on this machine; undefined for a key it does not know. */
export type MountResolver = (key: string) => Promise<MountedFile | undefined>;

export const READ_ONLY_MOUNT = 'Files of a music folder are read only: Encore never writes, moves or deletes them.';

/**
 * The configured storage plus read-only mounts: keys below a mounted prefix (`music/`) name files
 * that live elsewhere on this machine (the music folders), which every reader of storage (the
 * player's signed URLs, downloads, analysis, transcription, clips) reads as it reads any object.
 * Nothing is ever written, moved or deleted there: writes are refused and a delete does nothing.
 * Signed URLs of mounted keys are Encore's own (`/api/storage/o/<key>`), whatever the driver.
 */
export class MountedStorage implements Storage {
  private readonly mounts = new Map<string, MountResolver>();
  private readonly urlBase: string;
  /** Set while a backup holds deletes (holdDeletes); settles when the last hold is released. */
  private deletesHeld: { count: number; released: Promise<void>; release: () => void } | undefined;

  constructor(
    readonly primary: Storage,
    private readonly options: { signingSecret: string; publicBaseUrl?: string; logger: Logger },
  ) {
    this.urlBase = `${(options.publicBaseUrl ?? '').replace(/\/+$/, '')}${LOCAL_STORAGE_ROUTE_PREFIX}`;
  }

  get driver(): 'local' | 's3' {
    return this.primary.driver;
  }

  /** The local driver, when it is the configured one (its routes serve its signed PUTs). */
  get local(): LocalStorage | undefined {
    return this.primary instanceof LocalStorage ? this.primary : undefined;
  }

  /** Keys starting with `prefix` (which ends with `/`) are resolved by `resolver` from now on. */
  mount(prefix: string, resolver: MountResolver): void {
    if (!prefix.endsWith('/')) throw new Error(`a mount prefix ends with '/': ${prefix}`);
    this.mounts.set(prefix, resolver);
  }

  /** Whether `key` is below a mount (what the signed-URL routes serve even with S3). */
  isMounted(key: string): boolean {
    return this.resolverOf(key) !== undefined;
  }

  async presignPut(key: string, opts: { contentType?: string; expiresInSeconds: number }): Promise<string> {
    this.refuseWrite(key);
    return this.primary.presignPut(key, opts);
  }

  async presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; contentType?: string }): Promise<string> {
    if (!this.isMounted(key)) return this.primary.presignGet(key, opts);
    const claims: LocalUrlClaims = { op: 'get', key: assertValidKey(key), exp: Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(opts.expiresInSeconds)) };
    if (opts.contentType !== undefined) claims.contentType = assertValidContentType(opts.contentType);
    if (opts.downloadName !== undefined) claims.downloadName = opts.downloadName;
    return signedPath(this.urlBase, this.options.signingSecret, claims);
  }

  /** For the routes: the claims of a signed request (mounted keys are signed here, the others by the local driver). */
  verify(op: LocalUrlOp, key: string, query: Record<string, unknown>): LocalUrlClaims {
    return verifySignedQuery(this.options.signingSecret, op, key, query);
  }

  async put(key: string, body: Buffer | Readable, opts?: { contentType?: string; maxBytes?: number }): Promise<void> {
    this.refuseWrite(key);
    return this.primary.put(key, body, opts);
  }

  async get(key: string, range?: ReadRange): Promise<StoredObject> {
    if (!this.isMounted(key)) return this.primary.get(key, range);
    assertValidReadRange(range);
    const object = await this.open(key);
    try {
      const resolved = range === undefined ? undefined : resolveReadRange(range, object.size);
      const stream = object.read(resolved);
      return resolved === undefined
        ? { stream, size: object.size, contentType: object.contentType }
        : { stream, size: object.size, contentType: object.contentType, range: resolved };
    } catch (error) {
      await object.close();
      throw error;
    }
  }

  /** One open for the signed-URL route: a mounted file, or the local driver's object. */
  async open(key: string, options: { contentType?: boolean } = {}): Promise<OpenLocalObject> {
    const file = await this.locate(key);
    if (!file) {
      const local = this.local;
      if (!local) throw new NotFoundError();
      return local.open(key, options);
    }
    const opened = await openMounted(file);
    return openedObject(opened.handle, opened.stats.size, async () => file.contentType);
  }

  async stat(key: string): Promise<{ size: number; contentType: string | undefined } | null> {
    if (!this.isMounted(key)) return this.primary.stat(key);
    const file = await this.locate(key);
    if (!file) return null;
    try {
      const opened = await openMounted(file);
      await opened.handle.close();
      return { size: opened.stats.size, contentType: file.contentType };
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    if (!this.isMounted(key)) return this.primary.withLocalFile(key, use);
    const file = await this.locate(key);
    if (!file) throw new NotFoundError();
    const opened = await openMounted(file);
    let lent: string | undefined;
    try {
      // The folder's own file is lent, as the local driver lends its objects: read it, never write
      // it. Lent by its open descriptor (through a link named like the file, for readers that look
      // at the extension): a file swapped in after the check is never the one read.
      const proc = await pathOfHandle(opened.handle);
      if (proc === undefined) return await use(opened.realPath);
      lent = await makeOwnedTempDir('mounted');
      const link = path.join(lent, `song${path.extname(file.path).toLowerCase()}`);
      await fs.symlink(proc, link);
      return await use(link);
    } finally {
      await opened.handle.close().catch(() => undefined);
      if (lent !== undefined) await fs.rm(lent, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /**
   * Until the returned release runs, deletes (and moves, which delete their source) wait: a
   * backup snapshots the database and then the stored files, and a file the snapshot names
   * must not go before it is copied.
   */
  holdDeletes(): () => void {
    if (!this.deletesHeld) {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      this.deletesHeld = { count: 0, released, release };
    }
    const held = this.deletesHeld;
    held.count += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      held.count -= 1;
      if (held.count === 0) {
        this.deletesHeld = undefined;
        held.release();
      }
    };
  }

  private async whileDeletesHeld(): Promise<void> {
    while (this.deletesHeld) await this.deletesHeld.released;
  }

  async delete(key: string): Promise<void> {
    await this.whileDeletesHeld();
    if (this.isMounted(key)) {
      // Idempotent by contract, and nothing of a music folder is ever deleted: a no-op, logged.
      this.options.logger.warn({ key }, 'not deleting a file of a music folder');
      return;
    }
    return this.primary.delete(key);
  }

  async move(from: string, to: string): Promise<void> {
    this.refuseWrite(from);
    this.refuseWrite(to);
    await this.whileDeletesHeld();
    return this.primary.move(from, to);
  }

  list(prefix: string): AsyncIterable<ListedObject> {
    // Mounted files are listed by their owner, never swept as stored objects.
    return this.primary.list(prefix);
  }

  removeStaleTempFiles(olderThan: Date): Promise<number> {
    return this.primary.removeStaleTempFiles(olderThan);
  }

  check(): Promise<void> {
    return this.primary.check();
  }

  private resolverOf(key: string): MountResolver | undefined {
    for (const [prefix, resolver] of this.mounts) if (key.startsWith(prefix)) return resolver;
    return undefined;
  }

  private async locate(key: string): Promise<MountedFile | undefined> {
    const resolver = this.resolverOf(key);
    if (!resolver) return undefined;
    assertValidKey(key);
    const file = await resolver(key);
    if (!file) throw new NotFoundError();
    return file;
  }

  private refuseWrite(key: string): void {
    if (this.isMounted(key)) throw new ForbiddenError(READ_ONLY_MOUNT);
  }
}

/** Opens a mounted file and lets its owner check it; a file that is not there (or refused) is not found. */
async function openMounted(file: MountedFile): Promise<OpenedFile> {
  let opened: OpenedFile;
  try {
    opened = await openFile(file.path);
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'ELOOP')) throw new NotFoundError();
    throw error;
  }
  try {
    if (!opened.stats.isFile() || (file.accept && !(await file.accept(opened)))) throw new NotFoundError();
    return opened;
  } catch (error) {
    await opened.handle.close().catch(() => undefined);
    throw error;
  }
}
