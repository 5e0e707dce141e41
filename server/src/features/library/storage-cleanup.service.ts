import type { Logger } from '../../platform/logger.js';
import { sweepOrphans, type SweptFolder } from '../../platform/storage/orphan-sweep.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { LibraryRepository } from './library.repository.js';
import { TRANSCODE_PREFIX, transcodeKey } from './transcodes.js';

export interface StorageCleanupDeps {
  repository: LibraryRepository;
  storage: Storage;
  logger: Logger;
  /** Staged uploads younger than this may still be PUT or completed: the upload link's life, the upload deadline and a margin. */
  uploadGraceMs: number;
  /** Song and cover objects younger than this may belong to an ingest still running. */
  orphanGraceMs: number;
}

/**
 * The folders the library writes; each object in them belongs to a song or to nobody. An
 * upload's receipt (upload-key.ts) belongs to nobody: it is kept as long as its link works.
 */
const FOLDERS = ['uploads/', 'upload-receipts/', 'songs/', 'covers/'] as const;
/** Folders whose objects are only of use while an upload link may still be used. */
const UPLOAD_FOLDERS: readonly string[] = ['uploads/', 'upload-receipts/'];

/**
 * Removes the library's objects that belong to no song once they are past their grace period:
 * uploads never completed (or PUT again through a replayed link), and song or cover objects
 * whose ingest died before recording the song. Runs in the scheduled maintenance job.
 */
export class StorageCleanup {
  constructor(private readonly deps: StorageCleanupDeps) {}

  async run(now: Date = new Date()): Promise<{ removed: string[] }> {
    const { repository, storage, logger } = this.deps;
    const folders: SweptFolder[] = FOLDERS.map((prefix) => ({
      prefix,
      graceMs: UPLOAD_FOLDERS.includes(prefix) ? this.deps.uploadGraceMs : this.deps.orphanGraceMs,
      referenced: (keys) => repository.referencedKeys(keys),
    }));
    // Browser copies: kept while their song's file is the one they were made from.
    folders.push({ prefix: TRANSCODE_PREFIX, graceMs: this.deps.orphanGraceMs, referenced: (keys) => this.currentTranscodes(keys) });
    const removed = await sweepOrphans(storage, logger, folders, now);
    if (removed.length > 0) logger.info({ count: removed.length }, 'removed stored objects that belong to no song');
    return { removed };
  }

  private async currentTranscodes(keys: string[]): Promise<Set<string>> {
    const ids = keys.flatMap((key) => {
      const id = /^transcodes\/(\d{1,10})-/.exec(key)?.[1];
      return id === undefined ? [] : [Number(id)];
    });
    const rows = await this.deps.repository.rowsForKeys(ids);
    const current = new Set(rows.map((row) => transcodeKey(row)));
    return new Set(keys.filter((key) => current.has(key)));
  }
}
