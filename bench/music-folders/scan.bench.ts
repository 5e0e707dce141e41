/**
 * Music folders (issue 27): the scan of a generated tree of small tagged MP3s (`scan-tree.ts`:
 * Artist/Album/NN Title.mp3, ten to an album, a cover per album, embedded in a third of them and
 * a cover.jpg beside in another third), read in place by the music-folders module of an app in
 * this process. Prints, for PGlite and (with TEST_DATABASE_URL) PostgreSQL:
 * - the first scan of `SCAN_FILES` (20,000) files: files/s (goal ≥ 300 on two cores), next to
 *   music-metadata alone parsing 2,000 of the same files, and the music page while it runs:
 *   `GET /api/files?limit=48` and a search every 250 ms (SCAN_BROWSE_EVERY_MS), median and p95
 *   (goal p95 < 100 ms);
 * - the same app restarted with MUSIC_WATCH=on: its start-up rescan of those unchanged files, then
 *   a file dropped into a new album folder and one into an existing album, each timed until
 *   `GET /api/files` lists it (goal < 10 s);
 * - `SCAN_RESCAN_FILES` (50,000; 0 leaves it out) files: the first scan's files/s, then Scan now
 *   (POST /api/music-folders/scan) on the unchanged files (goal < 10 s); this process's RSS then,
 *   and the idle RSS of a server process (npm run serve's options, this file with
 *   SCAN_BENCH_SERVE) started on those songs, returning freed memory as main.ts does: median of
 *   the last 5 s of SCAN_IDLE_SECONDS (40) (goal < 250 MiB), and after a forced GC.
 * SCAN_PARTS=first or SCAN_PARTS=rescan runs one part.
 * Trees are kept in the OS temp folder by count and reused. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFile } from 'music-metadata';
import type { SongListEntry } from '@encore/common/library.contract';
import { buildApp } from '../../server/src/app.js';
import { returnFreeMemoryEvery } from '../../server/src/platform/memory/free-memory.js';
import type { Config } from '../../server/src/config.js';
import { musicFoldersModule } from '../../server/src/features/music-folders/music-folders.module.js';
import { benchEngines, fmt, startBenchApp, summarize, type BenchApp, type Engine } from '../library/bench-app.js';
import { serveNodeOptions } from '../serve-options.js';
import { scanTree, songPath, SONGS_PER_ALBUM } from './scan-tree.js';

const FIRST_FILES = Number(process.env['SCAN_FILES'] ?? 20_000);
const RESCAN_FILES = Number(process.env['SCAN_RESCAN_FILES'] ?? 50_000);
const PARSE_SAMPLE = Math.min(2_000, FIRST_FILES);
const FIRST_SCAN_GOAL = 300; // files/s
const PAGE_P95_GOAL_MS = 100;
const WATCH_GOAL_S = 10;
const RESCAN_GOAL_S = 10;
const IDLE_RSS_GOAL_MIB = 250;
const WATCH_GIVE_UP_MS = 60_000;
const IDLE_SECONDS = Number(process.env['SCAN_IDLE_SECONDS'] ?? 40);
/** Which parts run: `first` (first scan, browsing, watch) and `rescan` (50,000: rescan, memory). */
const PARTS = (process.env['SCAN_PARTS'] ?? 'first,rescan').split(',');
const BROWSE_EVERY_MS = Number(process.env['SCAN_BROWSE_EVERY_MS'] ?? 250);

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const numberOf = (n: number) => n.toLocaleString('en');

const service = (bench: BenchApp) => bench.app.encore.modules.internals(musicFoldersModule).service;

interface ScanFigures {
  seconds: number;
  total: number;
  added: number;
  failed: number;
}

/** The last scan's figures from its status row (started to finished, as the scanner records them). */
async function lastScan(bench: BenchApp): Promise<ScanFigures> {
  const status = await service(bench).status();
  if (status.state !== 'done' || !status.startedAt || !status.finishedAt) throw new Error(`the scan did not finish: ${JSON.stringify(status)}`);
  return {
    seconds: (Date.parse(status.finishedAt) - Date.parse(status.startedAt)) / 1000,
    total: status.total,
    added: status.added,
    failed: status.failed,
  };
}

/** music-metadata alone on the first files of the tree, eight at a time as the scanner reads. */
async function parseAlone(dir: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) await parseFile(path.join(dir, songPath(next++)), { duration: true });
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/**
 * The music page's requests until `done` settles: a page and a search every BROWSE_EVERY_MS (a
 * person paging and typing, not a flood that would only measure how the two share one database);
 * their times in ms.
 */
async function browseWhile(bench: BenchApp, done: Promise<unknown>): Promise<{ page: number[]; search: number[] }> {
  let finished = false;
  void done.finally(() => (finished = true));
  const headers = { authorization: `Bearer ${bench.token}` };
  const page: number[] = [];
  const search: number[] = [];
  const queries = ['midnight', 'golden river', 'shadows 12', 'electirc'];
  for (let round = 0; !finished; round += 1) {
    for (const [times, url] of [
      [page, '/api/files?limit=48'],
      [search, `/api/files?limit=48&q=${encodeURIComponent(queries[round % queries.length] as string)}`],
    ] as const) {
      const started = performance.now();
      const response = await bench.app.inject({ url, headers });
      times.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    }
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, BROWSE_EVERY_MS))]);
  }
  return { page, search };
}

async function songCount(bench: BenchApp): Promise<number> {
  const response = await bench.app.inject({ url: '/api/files?limit=1', headers: { authorization: `Bearer ${bench.token}` } });
  return Number(response.headers['x-total-count']);
}

/** Seconds from writing `file` until GET /api/files lists it (searched by its title), or null after a minute. */
async function listedAfter(bench: BenchApp, file: string, bytes: Buffer, title: string): Promise<number | null> {
  const headers = { authorization: `Bearer ${bench.token}` };
  const started = performance.now();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  while (performance.now() - started < WATCH_GIVE_UP_MS) {
    const response = await bench.app.inject({ url: `/api/files?limit=5&q=${encodeURIComponent(title)}`, headers });
    if (response.json<SongListEntry[]>().some((song) => song.fileName === path.basename(file))) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

async function firstScanAndWatch(engine: Engine): Promise<void> {
  const tree = await scanTree(FIRST_FILES);
  console.log(
    `\n${engine}: first scan of ${numberOf(FIRST_FILES)} files (${fmt(tree.bytes / 1e6)} MB) in ${tree.dir}` +
      (tree.generatedMs === null ? ' (tree reused)' : ` (tree generated in ${fmt(tree.generatedMs / 1000)} s)`),
  );
  const alone = await parseAlone(tree.dir, PARSE_SAMPLE);
  const wallStart = performance.now();
  const bench = await startBenchApp(engine, { MUSIC_FOLDERS: tree.dir, MUSIC_WATCH: 'off', MUSIC_SCAN_MINUTES: '0' });
  const dropped: string[] = [];
  try {
    const idle = service(bench).idle();
    const browsing = await browseWhile(bench, idle);
    await idle;
    const wall = (performance.now() - wallStart) / 1000;
    const scan = await lastScan(bench);
    const rate = scan.total / scan.seconds;
    console.log(
      `  first scan: ${numberOf(scan.added)} songs added, ${scan.failed} failed, ${fmt(scan.seconds)} s (${fmt(wall)} s from the app's start): ` +
        `${fmt(rate, 0)} files/s (goal ≥ ${FIRST_SCAN_GOAL}; ratio ${fmt(rate / FIRST_SCAN_GOAL, 2)}; ${verdict(rate >= FIRST_SCAN_GOAL)})`,
    );
    console.log(
      `  music-metadata alone on ${numberOf(PARSE_SAMPLE)} of the files (8 at once): ${fmt(alone, 0)} files/s; the scan runs at ${fmt(rate / alone, 2)} of it`,
    );
    for (const [label, times] of [
      ['GET /api/files?limit=48', browsing.page],
      ['GET /api/files?limit=48&q=… (search)', browsing.search],
    ] as const) {
      const { median, p95 } = summarize(times);
      console.log(
        `  while scanning, ${label} (every ${BROWSE_EVERY_MS} ms): ${times.length} requests, median ${fmt(median)} ms, p95 ${fmt(p95)} ms ` +
          `(goal p95 < ${PAGE_P95_GOAL_MS}; ratio ${fmt(p95 / PAGE_P95_GOAL_MS, 2)}; ${verdict(p95 < PAGE_P95_GOAL_MS)})`,
      );
    }
    const listed = await songCount(bench);
    if (listed !== FIRST_FILES) console.log(`  NOTE: GET /api/files counts ${listed} songs, not ${FIRST_FILES}`);

    // The same data, restarted with the watcher on.
    const config = bench.app.encore.platform.config;
    await bench.app.close();
    const restarted = performance.now();
    bench.app = await buildApp({ ...config, musicFolders: { ...config.musicFolders, watch: 'on' } });
    await service(bench).idle();
    const rescan = await lastScan(bench);
    console.log(
      `  restarted with MUSIC_WATCH=on: start-up rescan of ${numberOf(rescan.total)} unchanged files ${fmt(rescan.seconds, 2)} s ` +
        `(${fmt((performance.now() - restarted) / 1000, 2)} s from the restart)`,
    );
    const album = Math.ceil(FIRST_FILES / SONGS_PER_ALBUM) + 1;
    for (const [label, relative, song] of [
      ['a file dropped into a new album folder', path.join('Watch Bench', `Album ${Date.now()}`, '01 Dropped.mp3'), album * SONGS_PER_ALBUM],
      ['a file dropped into an existing album', path.join(path.dirname(songPath(0)), '11 Dropped.mp3'), album * SONGS_PER_ALBUM + 1],
    ] as const) {
      const title = `Droppedsong ${song} ${Date.now()}`;
      const file = path.join(tree.dir, relative);
      dropped.push(file);
      const seconds = await listedAfter(bench, file, tree.maker.song(song, { title }), title);
      console.log(
        seconds === null
          ? `  watch: ${label}: not listed after ${WATCH_GIVE_UP_MS / 1000} s (goal < ${WATCH_GOAL_S} s; MISSED)`
          : `  watch: ${label}: listed after ${fmt(seconds, 2)} s (goal < ${WATCH_GOAL_S} s; ratio ${fmt(seconds / WATCH_GOAL_S, 2)}; ${verdict(seconds < WATCH_GOAL_S)})`,
      );
    }
  } finally {
    await bench.close();
    // The cached tree stays as generated.
    for (const file of dropped) await rm(file, { force: true });
    await rm(path.join(tree.dir, 'Watch Bench'), { recursive: true, force: true });
  }
}

async function rescanAndMemory(engine: Engine): Promise<void> {
  const tree = await scanTree(RESCAN_FILES);
  console.log(
    `\n${engine}: ${numberOf(RESCAN_FILES)} files (${fmt(tree.bytes / 1e6)} MB) in ${tree.dir}` +
      (tree.generatedMs === null ? ' (tree reused)' : ` (tree generated in ${fmt(tree.generatedMs / 1000)} s)`),
  );
  const bench = await startBenchApp(engine, { MUSIC_FOLDERS: tree.dir, MUSIC_WATCH: 'off', MUSIC_SCAN_MINUTES: '0' });
  try {
    await service(bench).idle();
    const first = await lastScan(bench);
    console.log(
      `  first scan: ${numberOf(first.added)} songs added, ${first.failed} failed, ${fmt(first.seconds)} s: ${fmt(first.total / first.seconds, 0)} files/s`,
    );
    const started = performance.now();
    const response = await bench.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: { authorization: `Bearer ${bench.token}` } });
    if (response.statusCode >= 300) throw new Error(`Scan now: ${response.statusCode} ${response.body}`);
    await service(bench).idle();
    const wall = (performance.now() - started) / 1000;
    const rescan = await lastScan(bench);
    console.log(
      `  Scan now of ${numberOf(rescan.total)} unchanged files: ${fmt(rescan.seconds, 2)} s (${fmt(wall, 2)} s from the request) ` +
        `(goal < ${RESCAN_GOAL_S} s; ratio ${fmt(wall / RESCAN_GOAL_S, 2)}; ${verdict(wall < RESCAN_GOAL_S)})`,
    );
    const songs = await songCount(bench);
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    global.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    const mib = rss / 2 ** 20;
    console.log(
      `  RSS of this bench process holding the app with ${numberOf(songs)} folder songs after its scans: ${fmt(mib, 0)} MiB ` +
        `(heap ${fmt(heapUsed / 2 ** 20, 0)} MiB${global.gc ? ', after a GC' : ', no GC: run with --expose-gc for one'}; it also holds what the earlier apps of this bench left)`,
    );
    // As a server holds it: the app alone in a fresh process with npm run serve's options, started on the same data.
    const config = bench.app.encore.platform.config;
    await bench.app.close();
    const idle = await serverIdleRss(config);
    console.log(
      `  idle RSS of a server process started on them (start-up rescan ${fmt(idle.rescanSeconds, 2)} s, median of the last 5 s of ${IDLE_SECONDS} s idle): ` +
        `${fmt(idle.idleMib, 0)} MiB (goal < ${IDLE_RSS_GOAL_MIB}; ratio ${fmt(idle.idleMib / IDLE_RSS_GOAL_MIB, 2)}; ${verdict(idle.idleMib < IDLE_RSS_GOAL_MIB)}); ` +
        `after a forced GC ${fmt(idle.afterGcMib, 0)} MiB (heap ${fmt(idle.heapMib, 0)} MiB); peak ${fmt(idle.peakMib, 0)} MiB`,
    );
    bench.app = await buildApp({ ...config, musicFolders: { ...config.musicFolders, paths: [] } });
  } finally {
    await bench.close();
  }
}

interface IdleMemory {
  rescanSeconds: number;
  idleMib: number;
  afterGcMib: number;
  heapMib: number;
  peakMib: number;
}

/** Runs this file as the server (SCAN_BENCH_SERVE) in a child process on `config`'s data and reads its memory figures. */
async function serverIdleRss(config: Config): Promise<IdleMemory> {
  const child = spawn(process.execPath, [...serveNodeOptions, '--expose-gc', '--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, SCAN_BENCH_SERVE: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  const line = out.split('\n').find((text) => text.startsWith('{'));
  if (code !== 0 || !line) throw new Error(`the server process ended with ${code}: ${out}`);
  return JSON.parse(line) as IdleMemory;
}

/** The child: the app on the given config, its start-up scan, then idle; prints its figures as one JSON line. */
async function serveAndMeasure(config: Config): Promise<void> {
  const app = await buildApp(config);
  // What main.ts does after listening: freed memory goes back to the system every MEMORY_TRIM_SECONDS.
  const stopTrimming = await returnFreeMemoryEvery(config.memoryTrimSeconds, app.log);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    await app.encore.modules.internals(musicFoldersModule).service.idle();
    const status = await app.encore.modules.internals(musicFoldersModule).service.status();
    const rescanSeconds = (Date.parse(status.finishedAt ?? '') - Date.parse(status.startedAt ?? '')) / 1000;
    const samples: number[] = [];
    for (let at = 0; at < IDLE_SECONDS * 2; at += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      samples.push(process.memoryUsage().rss);
    }
    const idleMib = summarize(samples.slice(-10)).median / 2 ** 20;
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    global.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    const figures: IdleMemory = { rescanSeconds, idleMib, afterGcMib: rss / 2 ** 20, heapMib: heapUsed / 2 ** 20, peakMib: peak / 2 ** 20 };
    console.log(JSON.stringify(figures));
  } finally {
    clearInterval(sampler);
    stopTrimming();
    await app.close();
  }
}

const serving = process.env['SCAN_BENCH_SERVE'];
if (serving) await serveAndMeasure(JSON.parse(serving) as Config);
else
  for (const engine of benchEngines) {
    if (PARTS.includes('first')) await firstScanAndWatch(engine);
    if (RESCAN_FILES > 0 && PARTS.includes('rescan')) await rescanAndMemory(engine);
  }
