import type { Logger } from '../logger.js';
import type { Storage } from './storage.types.js';

/** A folder of stored objects that each belong to a row of some feature, or to nobody. */
export interface SweptFolder {
  prefix: string;
  /** Objects younger than this may belong to work still running (an upload, an ingest, a render). */
  graceMs: number;
  /** Of these keys, those a row still uses. */
  referenced(keys: string[]): Promise<Set<string>>;
}

const BATCH = 500;

/**
 * Removes the objects of these folders that no row uses once past their grace period. Safe to
 * run in several processes at once: a delete is idempotent and a referenced key is never touched.
 */
export async function sweepOrphans(storage: Storage, logger: Logger, folders: readonly SweptFolder[], now: Date = new Date()): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of folders) {
    const cutoff = now.getTime() - folder.graceMs;
    let batch: string[] = [];
    for await (const object of storage.list(folder.prefix)) {
      if (object.lastModified.getTime() >= cutoff) continue;
      batch.push(object.key);
      if (batch.length >= BATCH) {
        removed.push(...(await removeUnreferenced(storage, logger, folder, batch)));
        batch = [];
      }
    }
    removed.push(...(await removeUnreferenced(storage, logger, folder, batch)));
  }
  return removed;
}

async function removeUnreferenced(storage: Storage, logger: Logger, folder: SweptFolder, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const used = await folder.referenced(keys);
  const orphans = keys.filter((key) => !used.has(key));
  const results = await Promise.allSettled(orphans.map((key) => storage.delete(key)));
  return orphans.filter((key, index) => {
    const result = results[index];
    if (result?.status === 'rejected') logger.warn({ err: result.reason, key }, 'could not remove an orphaned object');
    return result?.status === 'fulfilled';
  });
}
