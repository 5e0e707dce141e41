/**
 * A labelled library for the AI-playlist evaluation, analysed by Encore's analyser: each song
 * synthesised to a file, decoded by ffmpeg to 22.05 kHz mono floats and analysed as the
 * analysis job does it. The analyses are kept in the OS temp folder, keyed by the analyser's
 * and the library's source, so a rerun with neither changed skips minutes of analysis.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SongFeatures } from '../../common/src/analysis.contract.js';
import { analyseSignal } from '../../server/src/features/discovery/analysis/analyse-signal.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const analysisDir = path.join(here, '../../server/src/features/discovery/analysis');

export interface SongSpec<L> {
  labels: L;
  /** Writes the song's audio into `dir`; answers its path. */
  synthesise(dir: string): Promise<string>;
}

export interface AnalysedSong<L> {
  labels: L;
  features: SongFeatures;
  vector: number[];
  /** Seconds of audio analysed and the milliseconds the analysis took. */
  seconds: number;
  analysisMs: number;
}

async function sourceHash(extraFiles: string[]): Promise<string> {
  const hash = createHash('sha256');
  const analysis = (await readdir(analysisDir)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).sort();
  for (const file of [...analysis.map((name) => path.join(analysisDir, name)), ...extraFiles]) hash.update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

/** Analyses the songs (or reads them from the cache of an identical earlier run). */
export async function analysedLibrary<L>(name: string, songs: SongSpec<L>[], sourceFiles: string[]): Promise<{ songs: AnalysedSong<L>[]; cached: boolean }> {
  const key = await sourceHash(sourceFiles);
  const cacheDir = path.join(tmpdir(), 'encore-evaluation-cache');
  const cacheFile = path.join(cacheDir, `${name}-${songs.length}-${key}.json`);
  try {
    return { songs: JSON.parse(await readFile(cacheFile, 'utf8')) as AnalysedSong<L>[], cached: true };
  } catch {
    // not analysed yet with these sources
  }
  const dir = await mkdtemp(path.join(tmpdir(), `encore-eval-${name}-`));
  const analysed: AnalysedSong<L>[] = [];
  try {
    for (const song of songs) {
      const file = await song.synthesise(dir);
      const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', '22050', '-f', 'f32le', '-'], {
        encoding: 'buffer',
        maxBuffer: 1 << 28,
      });
      const samples = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.byteLength));
      const started = performance.now();
      const { features, vector } = analyseSignal(samples);
      analysed.push({ labels: song.labels, features, vector, seconds: samples.length / 22_050, analysisMs: performance.now() - started });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(cacheDir, { recursive: true });
  await writeFile(cacheFile, JSON.stringify(analysed));
  return { songs: analysed, cached: false };
}

/** Area under the ROC curve of `score` separating the positives from the rest (0.5: chance). */
export function auc(scores: { score: number; positive: boolean }[]): number {
  const positives = scores.filter((entry) => entry.positive);
  const negatives = scores.filter((entry) => !entry.positive);
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}
