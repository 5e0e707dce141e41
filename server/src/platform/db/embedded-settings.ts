import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The migrations (server/drizzle), from the sources and from the build alike. */
export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** The embedded database's buffer cache, unless set: its own size, between these. */
export const EMBEDDED_CACHE_MIN_MB = 8;
export const EMBEDDED_CACHE_MAX_MB = 32;

// Statistics from 9,000 sampled rows instead of 30,000: ANALYZE runs in this process (see
// embedded-upkeep.ts), and on 50,000 songs the default's sample took 0.6 s, with every
// other query waiting, and kept about 20 MiB more of WebAssembly memory for good.
// PGlite has one connection and no replication, but PostgreSQL sizes its shared memory (lock
// table, per-connection slots) for max_connections, and Emscripten zero-fills all of it: the
// defaults (100, 10 senders) held about 3 MiB more of an idle Encore.
export const EMBEDDED_SETTINGS: readonly string[] = ['default_statistics_target=30', 'max_connections=10', 'max_wal_senders=0', 'max_replication_slots=0'];

/** What a new embedded cluster is made with (tests copy one made so instead of making their own). */
export const EMBEDDED_INITDB_SETTINGS: readonly string[] = [`shared_buffers=${EMBEDDED_CACHE_MIN_MB}MB`, ...EMBEDDED_SETTINGS];

/**
 * initdb's own arguments for a new embedded cluster: write-ahead log segments of 1 MB instead
 * of PostgreSQL's 16. A server's log is sized for bursts of many clients; a personal library's
 * writes come from one process, and with 16 MB segments the log kept 80 MB or more of
 * recycled segments beside a database half that size (issue 39: 115 of 182 MB at 20,000 songs).
 */
export const EMBEDDED_INITDB_ARGS: readonly string[] = ['--wal-segsize=1'];

const SEGMENT_NAME = /^[0-9A-F]{24}$/;

/**
 * How much write-ahead log the embedded cluster in `dir` keeps. PGlite has no checkpointer
 * process: PostgreSQL checkpoints in the writing session itself once `max_wal_size` is
 * written, then recycles old segments down towards `min_wal_size` (at least two segments).
 * A cluster made before 1 MB segments keeps 16 MB ones and gets the smallest sizes they allow.
 */
export async function walSettings(dir: string | undefined): Promise<string[]> {
  const segmentMb = dir ? await walSegmentMb(dir) : 1;
  return [`min_wal_size=${Math.max(4, 2 * segmentMb)}MB`, `max_wal_size=${Math.max(16, 4 * segmentMb)}MB`];
}

async function walSegmentMb(dir: string): Promise<number> {
  const walDir = path.join(dir, 'pg_wal');
  const names = await readdir(walDir).catch(() => [] as string[]);
  const segment = names.find((name) => SEGMENT_NAME.test(name));
  if (!segment) return 1;
  const { size } = await stat(path.join(walDir, segment));
  return Math.max(1, Math.round(size / 2 ** 20));
}
