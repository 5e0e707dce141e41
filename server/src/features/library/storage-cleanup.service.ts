import type { Logger } from '../../platform/logger.js';
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
const BATCH = 500;

/**
 * Removes the library's objects that belong to no song once they are past their grace period:
 * uploads never completed (or PUT again through a replayed link), and song or cover objects
 * whose ingest died before recording the song. Runs in the scheduled maintenance job; safe to
 * run in several processes at once (a delete is idempotent, a referenced key is never touched).
 */
export class StorageCleanup {
  constructor(private readonly deps: StorageCleanupDeps) {}

  async run(now: Date = new Date()): Promise<{ removed: string[] }> {
    const removed: string[] = [];
    for (const folder of FOLDERS) {
      const grace = folder === 'uploads/' ? this.deps.uploadGraceMs : this.deps.orphanGraceMs;
      const cutoff = now.getTime() - grace;
      let batch: string[] = [];
      for await (const object of this.deps.storage.list(folder)) {
        if (object.lastModified.getTime() >= cutoff) continue;
        batch.push(object.key);
        if (batch.length >= BATCH) {
          removed.push(...(await this.removeUnreferenced(batch)));
          batch = [];
        }
      }
      removed.push(...(await this.removeUnreferenced(batch)));
    }
    if (removed.length > 0) this.deps.logger.info({ count: removed.length }, 'removed stored objects that belong to no song');
    return { removed };
  }

  private async removeUnreferenced(keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const used = await this.deps.repository.referencedKeys(keys);
    const orphans = keys.filter((key) => !used.has(key));
    const results = await Promise.allSettled(orphans.map((key) => this.deps.storage.delete(key)));
    return orphans.filter((key, index) => {
      const result = results[index];
      if (result?.status === 'rejected') this.deps.logger.warn({ err: result.reason, key }, 'could not remove an orphaned object');
      return result?.status === 'fulfilled';
    });
  }
}
