import type { Logger } from '../../platform/logger.js';
import { sweepOrphans, type SweptFolder } from '../../platform/storage/orphan-sweep.js';
import type { Storage } from '../../platform/storage/storage.types.js';
import type { LibraryRepository } from './library.repository.js';

export interface StorageCleanupDeps {
  repository: LibraryRepository;
  storage: Storage;
  logger: Logger;
  /** Staged uploads younger than this may still be PUT or completed: the upload link's life, the upload deadline and a margin. */
  uploadGraceMs: number;
  /** Song and cover objects younger than this may belong to an ingest still running. */
  orphanGraceMs: number;
}

/** The folders the library writes; each object in them belongs to a song or to nobody. */
const FOLDERS = ['uploads/', 'songs/', 'covers/'] as const;

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
      graceMs: prefix === 'uploads/' ? this.deps.uploadGraceMs : this.deps.orphanGraceMs,
      referenced: (keys) => repository.referencedKeys(keys),
    }));
    const removed = await sweepOrphans(storage, logger, folders, now);
    if (removed.length > 0) logger.info({ count: removed.length }, 'removed stored objects that belong to no song');
    return { removed };
  }
}
