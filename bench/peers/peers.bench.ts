/**
 * Issue 39: Encore side by side with supysonic (the Python Subsonic server of Debian's packages,
 * 0.7.x, sqlite, gunicorn) on the same generated collection (`collection.ts`: `PEERS_SONGS`,
 * default 2,000 songs, MP3/FLAC/Ogg/M4A, a cover per album), both answering the same Subsonic
 * calls over loopback.
 *
 * - supysonic is installed with apt-get when `supysonic-server` is missing (and gunicorn, its
 *   WSGI server); its config, sqlite database and cache live in a fresh folder
 *   (`supysonic.conf` in the working directory, which supysonic reads after /etc/supysonic and
 *   ~/.supysonic). Served by `supysonic-server -S gunicorn` (its defaults: one sync worker) on
 *   127.0.0.1:8861 (`PEERS_SUPYSONIC_PORT`); scanned with `supysonic-cli folder scan --foreground`.
 * - Encore: the built server (`npm run build` first), `server/dist/main.js serve` with `npm run
 *   serve`'s node options, a fresh DATA_DIR, MUSIC_FOLDERS on the collection, on 127.0.0.1:8860
 *   (`PEERS_ENCORE_PORT`), sonic analysis off (ANALYSIS_BACKFILL/ON_INGEST=false: the figures are
 *   those of an idle library, as supysonic has no analysis); the scan followed through
 *   GET /api/music-folders; a user and an app password made through the API.
 * - Authentication: Encore with token and salt (`t`, `s`: a fresh salt per call, as the spec
 *   says) of the app password; supysonic 0.7 has no token authentication (it answers "A required
 *   parameter is missing"), so it gets `p=enc:<hex>`. Encore's `ping` with `p=enc:` is printed too.
 * - Each call is measured in batches of `PEERS_BATCH` (30) sequential calls, the servers
 *   interleaved (A B, then B A), `PEERS_ROUNDS` (5) rounds: p50 and p95 of every call's time,
 *   and CPU ms per call (utime + stime of the server's process tree from /proc, with children
 *   reaped, before and after each batch; the median of the rounds). Then 8 concurrent clients
 *   for `PEERS_THROUGHPUT_SECONDS` (4) each, 3 rounds interleaved: requests/s (median). Then the
 *   RSS of each process tree after browsing, the peak RSS while scanning (sampled), the
 *   database on disk, and the CPU of a fresh instance from start to serving and of its first scan.
 *
 * Prints a markdown table (figure, Encore, supysonic, Encore / supysonic) with the machine's
 * load average before and after. Asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveNodeOptions } from '../serve-options.js';
import { peersCollection } from './collection.js';

const SONGS = Number(process.env['PEERS_SONGS'] ?? 2_000);
const ROUNDS = Number(process.env['PEERS_ROUNDS'] ?? 5);
const BATCH = Number(process.env['PEERS_BATCH'] ?? 30);
const THROUGHPUT_SECONDS = Number(process.env['PEERS_THROUGHPUT_SECONDS'] ?? 4);
const CLIENTS = 8;
const ENCORE_PORT = Number(process.env['PEERS_ENCORE_PORT'] ?? 8860);
const SUPYSONIC_PORT = Number(process.env['PEERS_SUPYSONIC_PORT'] ?? 8861);
const USER = 'bench';
const PASSWORD = 'bench password 1';
const here = path.dirname(fileURLToPath(import.meta.url));
const serverMain = path.resolve(here, '../../server/dist/main.js');
const TICK_MS = 1000 / 100; // Linux's USER_HZ
/** Every server started, and the signal that stops it, so a failure stops them too. */
const spawned: [ChildProcess, NodeJS.Signals][] = [];

// ---------------------------------------------------------------- processes
interface ProcStat {
  pid: number;
  parent: number;
  /** utime + stime, and cutime + cstime (reaped children), in ms. */
  cpuMs: number;
  childCpuMs: number;
}

async function procStat(pid: number): Promise<ProcStat | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name (which may hold spaces): state is field 3; ppid 4; utime 14 … cstime 17.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      parent: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      childCpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return undefined;
  }
}

/** The pid and its descendants. */
async function tree(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = await procStat(Number(entry));
    if (info) children.set(info.parent, [...(children.get(info.parent) ?? []), info.pid]);
  }
  const all = [pid];
  for (let i = 0; i < all.length; i += 1) all.push(...(children.get(all[i] ?? -1) ?? []));
  return all;
}

/** CPU ms of a process tree: every live member's own, and what the root has reaped of its children (cutime). */
async function treeCpuMs(pids: number[]): Promise<number> {
  let total = 0;
  for (const [index, pid] of pids.entries()) {
    const info = await procStat(pid);
    if (info) total += info.cpuMs + (index === 0 ? info.childCpuMs : 0);
  }
  return total;
}

async function rssOf(pid: number): Promise<number> {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function treeRss(pid: number): Promise<number> {
  let total = 0;
  for (const member of await tree(pid)) total += await rssOf(member);
  return total;
}

/** Samples a tree's RSS every 100 ms until stopped: the peak. */
function peakSampler(pid: () => number) {
  let peak = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await treeRss(pid()));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return peak;
    },
  };
}

async function diskBytes(target: string): Promise<number> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.blocks * 512;
  let total = 0;
  for (const entry of await readdir(target)) total += await diskBytes(path.join(target, entry));
  return total;
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `probe` answers true (every 50 ms), sampling the tree's peak RSS meanwhile. */
async function waitFor(child: ChildProcess, what: string, probe: () => Promise<boolean>, limitMs = 600_000): Promise<void> {
  const started = performance.now();
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (child.exitCode !== null) throw new Error(`${what}: the process ended (${child.exitCode})`);
    if (performance.now() - started > limitMs) throw new Error(`${what}: not after ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---------------------------------------------------------------- the servers
interface Peer {
  name: string;
  origin: string;
  child: ChildProcess;
  /** The query string's credentials for one call. */
  auth(): string;
  /** Its process tree now (gunicorn's workers are children). */
  pids(): Promise<number[]>;
  stop(): Promise<void>;
  firstStartCpuMs: number;
  firstStartMs: number;
  scanCpuMs: number;
  scanMs: number;
  scanPeakRss: number;
  databaseBytes(): Promise<number>;
  extra: Record<string, string>;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A fresh Encore without music folders: CPU and wall ms from spawn to healthy (its first start alone, no scan beside it). */
async function bareEncoreStart(workDir: string): Promise<{ cpuMs: number; ms: number }> {
  const dataDir = path.join(workDir, 'bare-data');
  await mkdir(dataDir, { recursive: true });
  const started = performance.now();
  const child = spawnEncore(dataDir, '');
  const pid = child.pid ?? -1;
  await waitFor(child, 'Encore healthy', async () => (await fetch(`http://127.0.0.1:${ENCORE_PORT}/api/health`)).ok);
  const ms = performance.now() - started;
  const cpuMs = await treeCpuMs(await tree(pid));
  await stopProcess(child, 'SIGTERM');
  return { cpuMs, ms };
}

function spawnEncore(dataDir: string, musicDir: string): ChildProcess {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: run npm run build first`);
  const origin = `http://127.0.0.1:${ENCORE_PORT}`;
  const child = spawn(process.execPath, [...serveNodeOptions, serverMain, 'serve'], {
    env: {
      PATH: process.env['PATH'],
      PORT: String(ENCORE_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      MUSIC_FOLDERS: musicDir,
      LOG_LEVEL: 'warn',
      ANALYSIS_BACKFILL: 'false',
      ANALYSIS_ON_INGEST: 'false',
      LYRICS_LOOKUP_URL: 'off',
      LISTENBRAINZ_URL: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  spawned.push([child, 'SIGTERM']);
  return child;
}

async function startEncore(musicDir: string, workDir: string): Promise<Peer> {
  const dataDir = path.join(workDir, 'data');
  await mkdir(dataDir, { recursive: true });
  const origin = `http://127.0.0.1:${ENCORE_PORT}`;
  const started = performance.now();
  const child = spawnEncore(dataDir, musicDir);
  const pid = child.pid ?? -1;
  const scanPeak = peakSampler(() => pid);
  await waitFor(child, 'Encore healthy', async () => (await fetch(`${origin}/api/health`)).ok);
  const firstStartMs = performance.now() - started;
  const firstStartCpuMs = await treeCpuMs(await tree(pid));

  const json = { 'content-type': 'application/json' };
  const credentials = { userName: USER, password: PASSWORD, email: 'bench@example.com' };
  const signUp = await fetch(`${origin}/api/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify(credentials) });
  if (!signUp.ok) throw new Error(`Encore sign-up: ${signUp.status} ${await signUp.text()}`);
  const signIn = await fetch(`${origin}/api/auth/signin`, { method: 'POST', headers: json, body: JSON.stringify({ userName: USER, password: PASSWORD }) });
  if (!signIn.ok) throw new Error(`Encore sign-in: ${signIn.status} ${await signIn.text()}`);
  const { token } = (await signIn.json()) as { token: string };
  const bearer = { authorization: `Bearer ${token}` };
  const created = await fetch(`${origin}/api/auth/app-passwords`, {
    method: 'POST',
    headers: { ...json, ...bearer },
    body: JSON.stringify({ name: 'peers bench' }),
  });
  if (!created.ok) throw new Error(`Encore app password: ${created.status} ${await created.text()}`);
  const { password: appPassword } = (await created.json()) as { password: string };

  let songsFound = 0;
  await waitFor(child, 'Encore scan done', async () => {
    const answer = (await (await fetch(`${origin}/api/music-folders`, { headers: bearer })).json()) as {
      scan: { state: string; total: number; done: number; failed: number };
      folders: { songs: number }[];
    };
    songsFound = answer.folders.reduce((sum, folder) => sum + folder.songs, 0);
    if (answer.scan.state === 'failed') throw new Error(`Encore scan failed: ${JSON.stringify(answer.scan)}`);
    return answer.scan.state === 'done' && answer.scan.total > 0;
  });
  const scanMs = performance.now() - started - firstStartMs;
  const scanCpuMs = (await treeCpuMs(await tree(pid))) - firstStartCpuMs;
  const scanPeakRss = await scanPeak.stop();
  return {
    name: 'Encore',
    origin,
    child,
    auth: () => {
      const salt = randomBytes(6).toString('hex');
      return `u=${USER}&t=${md5(appPassword + salt)}&s=${salt}`;
    },
    pids: () => tree(pid),
    stop: () => stopProcess(child, 'SIGTERM'),
    firstStartCpuMs,
    firstStartMs,
    scanCpuMs,
    scanMs,
    scanPeakRss,
    databaseBytes: () => diskBytes(path.join(dataDir, 'db')),
    extra: { songs: String(songsFound), encPassword: `u=${USER}&p=enc:${Buffer.from(appPassword).toString('hex')}` },
  };
}

function ensureSupysonic(): void {
  const haveGunicorn = () => spawnSync('/usr/bin/python3', ['-c', 'import gunicorn'], { stdio: 'ignore' }).status === 0;
  if (existsSync('/usr/bin/supysonic-server') && existsSync('/usr/bin/supysonic-cli') && haveGunicorn()) return;
  console.log('installing supysonic and gunicorn with apt-get…');
  const install = spawnSync('apt-get', ['install', '-y', 'supysonic', 'gunicorn'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0 || !haveGunicorn()) throw new Error('apt-get install supysonic gunicorn failed (run apt-get update first?)');
}

/** Runs a supysonic-cli command in `cwd` (where supysonic.conf is); its CPU (sh's cutime) and peak RSS. */
async function supysonicCli(cwd: string, args: string[]): Promise<{ cpuMs: number; peakRss: number; output: string }> {
  // sh waits for the command, then prints its own /proc stat: cutime + cstime are the command's CPU.
  const script = `supysonic-cli ${args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ')} && cat /proc/$$/stat`;
  const child = spawn('sh', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const peak = peakSampler(() => child.pid ?? -1);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const peakRss = await peak.stop();
  if (code !== 0) throw new Error(`supysonic-cli ${args.join(' ')}: exit ${code}\n${output}`);
  const statLine = output.trim().split('\n').pop() ?? '';
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  return { cpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS, peakRss, output: output.trim().split('\n').slice(0, -1).join('\n') };
}

async function startSupysonic(musicDir: string, workDir: string): Promise<Peer> {
  ensureSupysonic();
  await mkdir(path.join(workDir, 'cache'), { recursive: true });
  const database = path.join(workDir, 'supysonic.db');
  await writeFile(
    path.join(workDir, 'supysonic.conf'),
    [
      '[base]',
      `database_uri = sqlite:///${database}`,
      '[webapp]',
      `cache_dir = ${path.join(workDir, 'cache')}`,
      'log_level = WARNING',
      '[daemon]',
      `socket = ${path.join(workDir, 'supysonic.sock')}`,
      '',
    ].join('\n'),
  );
  const origin = `http://127.0.0.1:${SUPYSONIC_PORT}`;
  const started = performance.now();
  const child = spawn('supysonic-server', ['-S', 'gunicorn', '-h', '127.0.0.1', '-p', String(SUPYSONIC_PORT)], {
    cwd: workDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  spawned.push([child, 'SIGINT']);
  const pid = child.pid ?? -1;
  // Serving: any Subsonic answer to ping (without a user yet, an error answer).
  await waitFor(child, 'supysonic serving', async () => (await fetch(`${origin}/rest/ping?v=1.12.0&c=bench&f=json`)).status > 0);
  const firstStartMs = performance.now() - started;
  const firstStartCpuMs = await treeCpuMs(await tree(pid));
  await supysonicCli(workDir, ['user', 'add', USER, '-p', PASSWORD]);
  await supysonicCli(workDir, ['folder', 'add', 'music', musicDir]);
  const scanStarted = performance.now();
  const scan = await supysonicCli(workDir, ['folder', 'scan', '--foreground', 'music']);
  const scanMs = performance.now() - scanStarted;
  const songsFound = /(\d+) tracks/.exec(scan.output)?.[1] ?? '?';
  return {
    name: 'supysonic',
    origin,
    child,
    auth: () => `u=${USER}&p=enc:${Buffer.from(PASSWORD).toString('hex')}`,
    pids: () => tree(pid),
    // gunicorn stops at once on SIGINT (SIGTERM waits for its workers' graceful timeout).
    stop: () => stopProcess(child, 'SIGINT'),
    firstStartCpuMs,
    firstStartMs,
    scanCpuMs: scan.cpuMs,
    scanMs,
    scanPeakRss: scan.peakRss,
    databaseBytes: async () => (await diskBytes(database)) + (await diskBytes(`${database}-wal`)) + (await diskBytes(`${database}-journal`)),
    extra: { songs: songsFound },
  };
}

// ---------------------------------------------------------------- the calls
interface Ids {
  albums: string[];
  songs: string[];
  covers: string[];
}

type SubsonicBody = { 'subsonic-response': Record<string, unknown> & { status: string } };

async function rest(peer: Peer, method: string, query: string, auth = peer.auth()): Promise<Record<string, unknown>> {
  const response = await fetch(`${peer.origin}/rest/${method}?${query}&${auth}&v=1.12.0&c=bench&f=json`);
  const body = (await response.json()) as SubsonicBody;
  if (body['subsonic-response'].status !== 'ok') throw new Error(`${peer.name} ${method}?${query}: ${JSON.stringify(body)}`);
  return body['subsonic-response'];
}

/** The same albums on both (alphabetical by name), their songs and cover ids. */
async function discover(peer: Peer): Promise<Ids> {
  const list = await rest(peer, 'getAlbumList2', 'type=alphabeticalByName&size=40');
  const albums = ((list['albumList2'] as { album?: { id: string }[] }).album ?? []).map((album) => String(album.id));
  const songs: string[] = [];
  const covers: string[] = [];
  for (const id of albums.slice(0, 20)) {
    const album = (await rest(peer, 'getAlbum', `id=${encodeURIComponent(id)}`))['album'] as { coverArt?: string; song?: { id: string }[] };
    if (album.coverArt !== undefined) covers.push(String(album.coverArt));
    songs.push(...(album.song ?? []).map((song) => String(song.id)));
  }
  if (albums.length === 0 || songs.length === 0 || covers.length === 0) throw new Error(`${peer.name}: no albums, songs or covers found`);
  return { albums, songs, covers };
}

interface Call {
  label: string;
  /** One call; resolves to the items it answered (for the table's sake), after reading the body. */
  run(peer: Peer, ids: Ids, i: number): Promise<number>;
}

const at = <T>(list: T[], i: number) => list[i % list.length] as T;
const q = encodeURIComponent;

async function readAll(response: Response, expected: number[]): Promise<number> {
  if (!expected.includes(response.status)) throw new Error(`${response.url}: status ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

const CALLS: Call[] = [
  { label: 'ping', run: async (peer) => ((await rest(peer, 'ping', '')) ? 1 : 0) },
  { label: 'getSong', run: async (peer, ids, i) => ((await rest(peer, 'getSong', `id=${q(at(ids.songs, i))}`))['song'] ? 1 : 0) },
  {
    label: 'getAlbum',
    run: async (peer, ids, i) => (((await rest(peer, 'getAlbum', `id=${q(at(ids.albums, i))}`))['album'] as { song?: unknown[] }).song ?? []).length,
  },
  {
    label: 'getAlbumList2 newest size=50',
    run: async (peer, _ids, i) =>
      (
        ((await rest(peer, 'getAlbumList2', `type=newest&size=50&offset=${(i * 50) % Math.max(50, SONGS / 10)}`))['albumList2'] as { album?: unknown[] })
          .album ?? []
      ).length,
  },
  {
    label: 'search3 query="" songCount=500 (a page of a sync)',
    run: async (peer, _ids, i) =>
      (
        (
          (await rest(peer, 'search3', `query=&artistCount=0&albumCount=0&songCount=500&songOffset=${(i * 500) % SONGS}`))['searchResult3'] as {
            song?: unknown[];
          }
        ).song ?? []
      ).length,
  },
  {
    label: 'search3 query=golden',
    run: async (peer) => {
      const result = (await rest(peer, 'search3', 'query=golden'))['searchResult3'] as { song?: unknown[]; album?: unknown[]; artist?: unknown[] };
      return (result.song ?? []).length + (result.album ?? []).length + (result.artist ?? []).length;
    },
  },
  {
    label: 'getCoverArt (cached)',
    run: async (peer, ids, i) => readAll(await fetch(`${peer.origin}/rest/getCoverArt?id=${q(at(ids.covers, i))}&${peer.auth()}&v=1.12.0&c=bench`), [200]),
  },
  {
    label: 'stream, Range: bytes=0-16383',
    run: async (peer, ids, i) =>
      readAll(
        await fetch(`${peer.origin}/rest/stream?id=${q(at(ids.songs, i))}&${peer.auth()}&v=1.12.0&c=bench`, { headers: { range: 'bytes=0-16383' } }),
        [206],
      ),
  },
];

// ---------------------------------------------------------------- measuring
function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

interface Figures {
  times: number[];
  cpuPerCall: number[];
  items: number;
}

async function batch(peer: Peer, call: Call, ids: Ids, figures: Figures, offset: number): Promise<void> {
  const pids = await peer.pids();
  const before = await treeCpuMs(pids);
  for (let i = 0; i < BATCH; i += 1) {
    const started = performance.now();
    figures.items = await call.run(peer, ids, offset + i);
    figures.times.push(performance.now() - started);
  }
  figures.cpuPerCall.push(((await treeCpuMs(pids)) - before) / BATCH);
}

/** 8 clients, each calling in turn ping, getSong, getAlbum, getAlbumList2 and getCoverArt, for THROUGHPUT_SECONDS: requests/s and CPU ms per request. */
async function throughput(peer: Peer, ids: Ids): Promise<{ perSecond: number; cpuPerCall: number }> {
  const mix = [CALLS[0], CALLS[1], CALLS[2], CALLS[3], CALLS[6]] as Call[];
  const pids = await peer.pids();
  const before = await treeCpuMs(pids);
  const started = performance.now();
  const until = started + THROUGHPUT_SECONDS * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; performance.now() < until; i += 1) {
        await at(mix, i).run(peer, ids, i);
        count += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, cpuPerCall: ((await treeCpuMs(pids)) - before) / count };
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const mib = (bytes: number) => bytes / 2 ** 20;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

async function main(): Promise<void> {
  const loadBefore = load();
  console.log(`peers: ${SONGS} songs; ${os.cpus().length} cores; load average (1/5/15 min) ${loadBefore}`);
  const collection = await peersCollection(SONGS);
  console.log(
    `collection ${collection.dir}: ${fmt(mib(collection.bytes))} MiB, ${collection.generatedMs === null ? 'reused' : `generated in ${fmt(collection.generatedMs / 1000)} s`}`,
  );
  const workDir = path.join(os.tmpdir(), `encore-peers-run-${SONGS}`);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(path.join(workDir, 'encore'), { recursive: true });
  await mkdir(path.join(workDir, 'supysonic'), { recursive: true });

  const peers: Peer[] = [];
  try {
    // One after the other, so that each first start and scan has the machine to itself.
    const bare = await bareEncoreStart(path.join(workDir, 'encore'));
    peers.push(await startEncore(collection.dir, path.join(workDir, 'encore')));
    console.log(
      `Encore: serving after ${fmt((peers[0]?.firstStartMs ?? 0) / 1000)} s; scanned ${peers[0]?.extra['songs']} songs in ${fmt((peers[0]?.scanMs ?? 0) / 1000)} s`,
    );
    peers.push(await startSupysonic(collection.dir, path.join(workDir, 'supysonic')));
    console.log(
      `supysonic: serving after ${fmt((peers[1]?.firstStartMs ?? 0) / 1000)} s; scanned ${peers[1]?.extra['songs']} songs in ${fmt((peers[1]?.scanMs ?? 0) / 1000)} s`,
    );
    const [encore, supysonic] = peers as [Peer, Peer];
    const ids = new Map<Peer, Ids>([
      [encore, await discover(encore)],
      [supysonic, await discover(supysonic)],
    ]);
    const idsOf = (peer: Peer) => ids.get(peer) as Ids;

    // Warm-up: every call three times on each (covers rendered or cached, caches filled).
    for (const peer of peers) for (const call of CALLS) for (let i = 0; i < 3; i += 1) await call.run(peer, idsOf(peer), i);
    for (const peer of peers) for (let i = 0; i < idsOf(peer).covers.length; i += 1) await (CALLS[6] as Call).run(peer, idsOf(peer), i);

    const encPing: Call = { label: 'ping with p=enc: (Encore)', run: async (peer) => ((await rest(peer, 'ping', '', encore.extra['encPassword'])) ? 1 : 0) };
    const figures = new Map<string, Figures>();
    const figuresOf = (peer: Peer, call: Call) => {
      const key = `${peer.name} ${call.label}`;
      if (!figures.has(key)) figures.set(key, { times: [], cpuPerCall: [], items: 0 });
      return figures.get(key) as Figures;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [encore, supysonic] : [supysonic, encore];
      for (const call of CALLS) for (const peer of order) await batch(peer, call, idsOf(peer), figuresOf(peer, call), round * BATCH);
      await batch(encore, encPing, idsOf(encore), figuresOf(encore, encPing), 0);
      console.log(`round ${round + 1} of ${ROUNDS} done; load average ${load()}`);
    }
    const rates = new Map<Peer, { perSecond: number[]; cpu: number[] }>(peers.map((peer) => [peer, { perSecond: [], cpu: [] }]));
    for (let round = 0; round < 3; round += 1) {
      for (const peer of round % 2 === 0 ? [encore, supysonic] : [supysonic, encore]) {
        const result = await throughput(peer, idsOf(peer));
        rates.get(peer)?.perSecond.push(result.perSecond);
        rates.get(peer)?.cpu.push(result.cpuPerCall);
      }
    }
    const rss = new Map<Peer, number>();
    for (const peer of peers) rss.set(peer, await treeRss(peer.child.pid ?? -1));

    const rows: [string, number, number, number?][] = [];
    for (const call of CALLS) {
      const a = figuresOf(encore, call);
      const b = figuresOf(supysonic, call);
      const sa = [...a.times].sort((x, y) => x - y);
      const sb = [...b.times].sort((x, y) => x - y);
      const items = a.items === b.items ? `${a.items}` : `${a.items} / ${b.items}`;
      const unit = call.label.startsWith('getCoverArt') || call.label.startsWith('stream') ? 'bytes' : 'items';
      rows.push([`${call.label} p50 ms (${unit}: ${items})`, quantile(sa, 0.5), quantile(sb, 0.5)]);
      rows.push([`${call.label} p95 ms`, quantile(sa, 0.95), quantile(sb, 0.95)]);
      rows.push([`${call.label} CPU ms per call`, median(a.cpuPerCall), median(b.cpuPerCall)]);
    }
    const enc = figuresOf(encore, encPing);
    const sortedEnc = [...enc.times].sort((x, y) => x - y);
    const supyPing = figuresOf(supysonic, CALLS[0] as Call);
    rows.push([
      'ping with p=enc: p50 ms (both)',
      quantile(sortedEnc, 0.5),
      quantile(
        [...supyPing.times].sort((x, y) => x - y),
        0.5,
      ),
    ]);
    rows.push(['ping with p=enc: CPU ms per call (both)', median(enc.cpuPerCall), median(supyPing.cpuPerCall)]);
    const ra = rates.get(encore) as { perSecond: number[]; cpu: number[] };
    const rb = rates.get(supysonic) as { perSecond: number[]; cpu: number[] };
    rows.push([`${CLIENTS} concurrent clients, requests/s (higher is better)`, median(ra.perSecond), median(rb.perSecond)]);
    rows.push([`${CLIENTS} concurrent clients, CPU ms per request`, median(ra.cpu), median(rb.cpu)]);
    rows.push(['server RSS after browsing, MiB (process tree)', mib(rss.get(encore) ?? 0), mib(rss.get(supysonic) ?? 0)]);
    rows.push(['RSS while scanning, peak MiB (Encore: the server; supysonic: supysonic-cli)', mib(encore.scanPeakRss), mib(supysonic.scanPeakRss)]);
    rows.push([
      'database on disk, MiB (Encore: DATA_DIR/db with pg_wal; supysonic: sqlite file)',
      mib(await encore.databaseBytes()),
      mib(await supysonic.databaseBytes()),
    ]);
    rows.push(['fresh instance: CPU s from start to serving', encore.firstStartCpuMs / 1000, supysonic.firstStartCpuMs / 1000]);
    rows.push(['Encore without MUSIC_FOLDERS (no scan beside its start): CPU s from start to serving', bare.cpuMs / 1000, supysonic.firstStartCpuMs / 1000]);
    rows.push(['fresh instance: wall s from start to serving', encore.firstStartMs / 1000, supysonic.firstStartMs / 1000]);
    rows.push([`first scan of ${SONGS} songs: CPU s`, encore.scanCpuMs / 1000, supysonic.scanCpuMs / 1000]);
    rows.push([`first scan of ${SONGS} songs: wall s`, encore.scanMs / 1000, supysonic.scanMs / 1000]);

    console.log(
      `\n${SONGS} songs (Encore found ${encore.extra['songs']}, supysonic ${supysonic.extra['songs']}); ${ROUNDS} rounds of ${BATCH} calls each, interleaved; medians`,
    );
    console.log(`Encore: token + salt (app password); supysonic: p=enc: (0.7 has no token authentication). Sonic analysis off.`);
    console.log('| figure | Encore | supysonic | Encore / supysonic |');
    console.log('|---|---|---|---|');
    for (const [label, a, b] of rows) console.log(`| ${label} | ${fmt(a, a < 10 ? 2 : 1)} | ${fmt(b, b < 10 ? 2 : 1)} | ${fmt(a / b, 2)} |`);
    console.log(`\nload average (1/5/15 min): before ${loadBefore}, after ${load()}; ${os.cpus().length} cores`);
  } finally {
    for (const [child, signal] of spawned) await stopProcess(child, signal);
  }
}

await main();
