import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { capabilitiesOf, type FfmpegCapabilities } from './ffmpeg.capabilities.js';
import type { FfmpegSource, LocatedFfmpeg } from './ffmpeg.locate.js';

/**
 * What probing a binary found (`-version`, `-filters`, `-encoders`: three processes and about
 * 0.4 s at start-up), kept in DATA_DIR/cache so a restart with the same binary reads one small
 * file instead. A probe stands only for the exact file it was made of: same path, inode, size
 * and modification time; a replaced or upgraded ffmpeg is probed again.
 */
interface CachedProbe {
  path: string;
  source: FfmpegSource;
  version: string;
  fingerprint: string;
  filters: string[];
  encoders: string[];
}

function probeCacheFile(dataDir: string): string {
  return path.join(dataDir, 'cache', 'ffmpeg-probe.json');
}

async function fingerprintOf(file: string): Promise<string | undefined> {
  try {
    const info = await fs.stat(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The cached probe of `candidate`, when there is one for that very file. */
export async function readCachedProbe(
  dataDir: string,
  candidate: { path: string; source: FfmpegSource },
): Promise<(LocatedFfmpeg & FfmpegCapabilities) | undefined> {
  let cached: Partial<CachedProbe>;
  try {
    cached = JSON.parse(await fs.readFile(probeCacheFile(dataDir), 'utf8')) as Partial<CachedProbe>;
  } catch {
    return undefined; // none yet, or unreadable: probe again
  }
  if (cached.path !== candidate.path || cached.source !== candidate.source || typeof cached.version !== 'string') return undefined;
  if (!Array.isArray(cached.filters) || !Array.isArray(cached.encoders)) return undefined;
  if (cached.fingerprint === undefined || cached.fingerprint !== (await fingerprintOf(candidate.path))) return undefined;
  const filters = new Set(cached.filters.filter((name): name is string => typeof name === 'string'));
  const encoders = new Set(cached.encoders.filter((name): name is string => typeof name === 'string'));
  return { path: candidate.path, source: candidate.source, version: cached.version, ...capabilitiesOf(filters, encoders) };
}

/** Keeps a fresh probe for the next start; a cache that cannot be written only costs that. */
export async function writeCachedProbe(dataDir: string, probe: LocatedFfmpeg & FfmpegCapabilities): Promise<void> {
  const fingerprint = await fingerprintOf(probe.path);
  if (fingerprint === undefined) return;
  const record: CachedProbe = {
    path: probe.path,
    source: probe.source,
    version: probe.version,
    fingerprint,
    filters: [...probe.filters],
    encoders: [...probe.encoders],
  };
  const file = probeCacheFile(dataDir);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(record));
}
