/**
 * Issue 14's process figures, on the built server as `npm start` runs it (`node
 * server/dist/main.js serve`, embedded defaults, PGlite; run `npm run build` first):
 * - the very first start on an empty data folder (PGlite initdb): time to a healthy
 *   `/api/health`, the server's peak RSS (VmHWM), the peak of the server and its children
 *   together (initdb runs in a child), and the RSS once idle (goal ≤ 300 MiB);
 * - restarts: time from spawn to healthy (goal ≤ 1.5 s), median of `PROCESS_RESTARTS` (3), and
 *   the idle RSS after a restart (goal ≤ 150 MiB);
 * - 50,000 songs (the scale bench's rows, written into the same data folder): the idle RSS
 *   after a restart, and again after browsing (twenty music pages in each sort, searches)
 *   (goal ≤ 200 MiB).
 * Idle means `PROCESS_IDLE_SECONDS` (20) after healthy; the figure is the median of the RSS
 * sampled over its last five seconds. The empty library's restart is also measured settled,
 * `PROCESS_SETTLED_SECONDS` (100) after healthy: past the first embedded-database upkeep (60 s)
 * and the optimising recompiles of PostgreSQL's busy functions, with the server's returns of
 * freed memory (MEMORY_TRIM_SECONDS, 30) and, in the same run, without them (0); the CPU it
 * uses between the two (job polling, upkeep) is printed too. Prints figures only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { openDatabase } from '../../server/src/platform/db/database.js';
import { sql } from 'drizzle-orm';
import { users } from '../../server/src/features/auth/auth.schema.js';
import { songRow } from '../library/scale-library.js';
import { serveNodeOptions } from '../serve-options.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverMain = path.resolve(here, '../../server/dist/main.js');
const PORT = Number(process.env['BENCH_PORT'] ?? 8303);
const BASE = `http://127.0.0.1:${PORT}`;
const IDLE_SECONDS = Number(process.env['PROCESS_IDLE_SECONDS'] ?? 20);
const RESTARTS = Number(process.env['PROCESS_RESTARTS'] ?? 3);
const SETTLED_SECONDS = Number(process.env['PROCESS_SETTLED_SECONDS'] ?? 100);
const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const MiB = 1024 * 1024;

interface Run {
  server: ChildProcess;
  healthyMs: number;
  /** Highest RSS of the server and its children together, sampled every 50 ms until healthy. */
  treePeak: number;
}

async function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pid and every descendant of it. */
async function tree(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended meanwhile.
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i += 1) all.push(...(parents.get(all[i] ?? -1) ?? []));
  return all;
}

async function treeRss(pid: number): Promise<number> {
  let total = 0;
  for (const member of await tree(pid)) total += await statusField(member, 'VmRSS');
  return total;
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<Run> {
  const started = performance.now();
  const server = spawn(process.execPath, [...serveNodeOptions, serverMain, 'serve'], {
    env: {
      PATH: process.env['PATH'],
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let treePeak = 0;
  const pid = server.pid ?? -1;
  for (;;) {
    treePeak = Math.max(treePeak, await treeRss(pid));
    const healthy = await fetch(`${BASE}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { server, healthyMs: performance.now() - started, treePeak };
    if (server.exitCode !== null || performance.now() - started > 180_000) throw new Error('the server did not become healthy');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** CPU time (user + system) a process has used, from /proc (clock ticks of Linux's USER_HZ, 100). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the third: utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The median RSS over the last five seconds of `seconds` of idling. */
async function idleRss(pid: number, seconds: number): Promise<number> {
  const samples: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (until - Date.now() <= 5_000) samples.push(await statusField(pid, 'VmRSS'));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

async function browse(): Promise<void> {
  const credentials = { userName: 'browser', password: 'browser password 1', email: 'browser@example.com' };
  await fetch(`${BASE}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  const signin = await fetch(`${BASE}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  const { token } = (await signin.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  for (const sort of ['recent', 'title', 'artist', 'album']) {
    for (let page = 0; page < 20; page += 1) {
      const response = await fetch(`${BASE}/api/files?limit=12&offset=${page * 2_400}&sort=${sort}`, { headers });
      if (!response.ok) throw new Error(`music page: ${response.status}`);
      await response.arrayBuffer();
    }
  }
  for (const q of ['beyonce', 'midnight river', 'shaddows', 'hollw', '4711'])
    await (await fetch(`${BASE}/api/files?limit=12&q=${encodeURIComponent(q)}`, { headers })).arrayBuffer();
}

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ url: undefined, pgliteDir: path.join(dataDir, 'db') });
  try {
    const [owner] = await database.db.insert(users).values({ userName: 'archivist', email: 'archivist@example.com' }).returning({ id: users.id });
    await new LibraryRepository(database.db).insertMany(Array.from({ length: SONGS }, (_, i) => songRow(owner?.id ?? 0, i)));
    // An upload's tags are read once, at the upload (embedded lyrics included), and the song is
    // marked as read. These rows never were uploaded: marked here, or the restart's lyrics
    // backfill spends the idle minute trying to open 50,000 files that do not exist.
    await database.db.execute(sql`insert into lyrics_embedded_scans (song_id, found) select id, 'none' from songs`);
  } finally {
    await database.close();
  }
}

const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const ratio = (value: number, goal: number) => (value / goal).toFixed(2);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

if (!existsSync(serverMain)) {
  console.error('process.bench: run `npm run build` first (it starts server/dist/main.js).');
  process.exit(1);
}
const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-process-bench-'));
try {
  const first = await start(dataDir);
  const firstPeak = await statusField(first.server.pid ?? -1, 'VmHWM');
  const firstIdle = await idleRss(first.server.pid ?? -1, IDLE_SECONDS);
  await stop(first.server);

  const restarts: number[] = [];
  let restartIdle = 0;
  let settled = 0;
  let idleCpu = 0;
  for (let i = 0; i < RESTARTS; i += 1) {
    const run = await start(dataDir);
    restarts.push(run.healthyMs);
    if (i === RESTARTS - 1) {
      restartIdle = await idleRss(run.server.pid ?? -1, IDLE_SECONDS);
      const cpuBefore = await cpuSeconds(run.server.pid ?? -1);
      settled = await idleRss(run.server.pid ?? -1, SETTLED_SECONDS - IDLE_SECONDS);
      idleCpu = (await cpuSeconds(run.server.pid ?? -1)) - cpuBefore;
    }
    await stop(run.server);
  }
  const untrimmed = await start(dataDir, { MEMORY_TRIM_SECONDS: '0' });
  const settledUntrimmed = await idleRss(untrimmed.server.pid ?? -1, SETTLED_SECONDS);
  await stop(untrimmed.server);

  await seed(dataDir);
  const large = await start(dataDir);
  const largeIdle = await idleRss(large.server.pid ?? -1, IDLE_SECONDS);
  await browse();
  const browsedIdle = await idleRss(large.server.pid ?? -1, IDLE_SECONDS);
  await stop(large.server);

  console.log(
    `\nThe built server (node ${[...serveNodeOptions, path.relative(process.cwd(), serverMain)].join(' ')} serve, as npm start), PGlite, idle = median RSS over the last 5 s of ${IDLE_SECONDS} s`,
  );
  console.log('| figure | value | goal | value / goal |');
  console.log('|---|---|---|---|');
  console.log(`| first start: spawn to healthy | ${(first.healthyMs / 1000).toFixed(2)} s | - | - |`);
  console.log(`| first start: server's peak RSS (VmHWM) | ${mib(firstPeak)} MiB | 300 MiB | ${ratio(firstPeak / MiB, 300)} |`);
  console.log(`| first start: peak RSS of server + initdb child | ${mib(first.treePeak)} MiB | - | - |`);
  console.log(`| first start: idle RSS | ${mib(firstIdle)} MiB | 300 MiB | ${ratio(firstIdle / MiB, 300)} |`);
  console.log(
    `| restart to healthy (median of ${RESTARTS}: ${restarts.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s) | ${(median(restarts) / 1000).toFixed(2)} s | 1.5 s | ${ratio(median(restarts) / 1000, 1.5)} |`,
  );
  console.log(`| idle RSS after a restart, empty library | ${mib(restartIdle)} MiB | 150 MiB | ${ratio(restartIdle / MiB, 150)} |`);
  console.log(`| the same, settled (${SETTLED_SECONDS} s after healthy) | ${mib(settled)} MiB | 150 MiB | ${ratio(settled / MiB, 150)} |`);
  console.log(`| the same, settled, freed memory never returned (MEMORY_TRIM_SECONDS=0) | ${mib(settledUntrimmed)} MiB | - | - |`);
  console.log(
    `| idle CPU after a restart, empty library (${IDLE_SECONDS}-${SETTLED_SECONDS} s after healthy) | ${((idleCpu / (SETTLED_SECONDS - IDLE_SECONDS)) * 100).toFixed(2)} % of a core | - | - |`,
  );
  console.log(`| idle RSS after a restart, ${SONGS.toLocaleString('en')} songs | ${mib(largeIdle)} MiB | 200 MiB | ${ratio(largeIdle / MiB, 200)} |`);
  console.log(
    `| idle RSS after browsing ${SONGS.toLocaleString('en')} songs (80 pages, 5 searches) | ${mib(browsedIdle)} MiB | 200 MiB | ${ratio(browsedIdle / MiB, 200)} |`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
