import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { isGone, ownerTag, parseOwnerTag, THIS_PROCESS } from '../fs/process-owner.js';

/** The embedded database's folder is open in another process: opening it too would corrupt it. */
export class EmbeddedDatabaseInUseError extends Error {
  override readonly name = 'EmbeddedDatabaseInUseError';
}

/** A lock younger than this without an owner in it may be being written by its taker. */
const FRESH_LOCK_MS = 5_000;
/** The holder touches its lock this often, so a lock of another machine can be told stale. */
const HEARTBEAT_MS = 30_000;
/**
 * Another machine's process cannot be asked whether it runs: its lock counts as left behind once
 * untouched this long (a container made again after a crash has a new host name).
 */
const OTHER_HOST_STALE_MS = 4 * HEARTBEAT_MS;

/**
 * Takes the embedded database's folder for this process, or throws when a live one holds it.
 * PGlite has no lock of its own: two processes (a second `npm start`, an import while Encore
 * runs) would both write the same files. A lock left by a process that is gone is taken over.
 * The lock is `<dir>.lock`, beside the folder (initdb wants the folder to itself). Resolves to
 * the release, which removes the lock if it is still this process's.
 */
export async function lockEmbeddedDatabase(dir: string): Promise<() => Promise<void>> {
  const file = `${dir.replace(/[\\/]+$/, '')}.lock`;
  const tag = ownerTag();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(`${tag}\n`);
      } finally {
        await handle.close();
      }
      const heartbeat = setInterval(() => {
        const now = new Date();
        utimes(file, now, now).catch(() => undefined);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return async () => {
        clearInterval(heartbeat);
        if ((await readFile(file, 'utf8').catch(() => '')).trim() === tag) await unlink(file).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = (await readFile(file, 'utf8').catch(() => '')).trim();
    const owner = parseOwnerTag(held);
    const age = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0);
    const staleElsewhere = owner !== undefined && owner.host !== THIS_PROCESS.host && age > OTHER_HOST_STALE_MS;
    if (owner && !isGone(owner) && !staleElsewhere) {
      const where = owner.host === THIS_PROCESS.host ? `process ${owner.pid}` : `process ${owner.pid} on ${owner.host}`;
      throw new EmbeddedDatabaseInUseError(
        `The embedded database in ${dir} is open in another Encore (${where}). Stop it first, or use PostgreSQL (DATABASE_URL) to run several processes. If that process is gone, delete ${file}.`,
      );
    }
    if (!owner) {
      if (age < FRESH_LOCK_MS) {
        await sleep(100);
        continue;
      }
    }
    // Its process is gone (or, on another machine, stopped touching it), or it was left empty
    // by a process killed while taking it.
    await unlink(file).catch(() => undefined);
  }
  throw new EmbeddedDatabaseInUseError(`Could not take the lock ${file} of the embedded database: another process keeps taking it.`);
}
