/**
 * Analysis yields to listeners (issue 39). `ANALYSIS_YIELD_SONGS` (8) generated one-minute
 * MP3s (a chord over a kick, pink noise) imported into a fresh library (PGlite, local storage):
 *  1. analysis speed on an idle server: each song through the analysis pool one at a time
 *     (decode, features, playback loudness on the analysis thread), as × real time per core;
 *  2. p50 / p95 of small Subsonic calls over loopback HTTP with an API key (`ping`, `getSong`,
 *     `getAlbum`), `ANALYSIS_YIELD_ROUNDS` (60) rounds each, idle, then while the analysis
 *     backfill runs over every song, then idle again; the ratio with analysis / idle (goal
 *     p95 ≤ 1.3×). The machine's load average is printed beside: other work on the machine
 *     moves every figure. Prints figures only.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { discoveryModule } from '../../server/src/features/discovery/discovery.module.js';
import { libraryModule } from '../../server/src/features/library/library.module.js';
import { AnalysisPool } from '../../server/src/features/discovery/analysis/analysis-pool.js';
import { fmt, startBenchApp, summarize } from '../library/bench-app.js';

const run = promisify(execFile);
const SONGS = Number(process.env['ANALYSIS_YIELD_SONGS'] ?? 8);
const ROUNDS = Number(process.env['ANALYSIS_YIELD_ROUNDS'] ?? 60);
const SONG_SECONDS = 60;
const FFMPEG = process.env['FFMPEG_PATH'] ?? 'ffmpeg';

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const dir = await mkdtemp(path.join(os.tmpdir(), 'encore-analysis-yield-'));
try {
  await mkdir(path.join(dir, 'Bench Artist', 'Bench Album'), { recursive: true });
  for (let song = 0; song < SONGS; song += 1) {
    const root = 110 * 2 ** ((song % 12) / 12);
    const bpm = 90 + song * 7;
    const expression = [
      `0.2*sin(2*PI*${root}*t)+0.15*sin(2*PI*${root * 1.25}*t)+0.15*sin(2*PI*${root * 1.5}*t)`,
      `0.5*sin(2*PI*55*t)*exp(-12*mod(t\\,${(60 / bpm).toFixed(4)}))`,
    ].join('+');
    await run(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `aevalsrc=${expression}:s=44100:d=${SONG_SECONDS}`],
      ...['-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.05:r=44100:d=${SONG_SECONDS}`],
      ...['-filter_complex', 'amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0', '-c:a', 'libmp3lame', '-b:a', '128k'],
      ...['-metadata', `title=Song ${song + 1}`, '-metadata', 'artist=Bench Artist', '-metadata', 'album=Bench Album', '-metadata', `track=${song + 1}`],
      path.join(dir, 'Bench Artist', 'Bench Album', `${String(song + 1).padStart(2, '0')} Song ${song + 1}.mp3`),
    ]);
  }
  console.log(`${SONGS} songs of ${SONG_SECONDS} s; load average ${load()}; ${os.availableParallelism()} cores`);

  const bench = await startBenchApp('pglite', { ANALYSIS_ON_INGEST: 'false', ANALYSIS_BACKFILL: 'false' });
  try {
    const report = await bench.app.encore.modules.internals(libraryModule).folderImport.run(dir, { ownerId: bench.userId });
    if (report.imported.length !== SONGS) throw new Error(`imported ${report.imported.length} of ${SONGS}: ${JSON.stringify(report.refused)}`);

    // 1. Analysis speed, one song at a time on an idle server.
    const platform = bench.app.encore.platform;
    const pool = new AnalysisPool({ ffmpegPath: async () => (await platform.ffmpeg.info()).path, busy: () => false, maxThreads: 1 });
    const speeds: number[] = [];
    for (const song of report.imported) {
      const started = performance.now();
      const measured = await pool.analyse(path.join(dir, song.path), 600_000);
      if ('reason' in measured) throw new Error(`${song.path}: ${measured.reason}`);
      speeds.push(SONG_SECONDS / ((performance.now() - started) / 1000));
    }
    await pool.close();
    const speed = summarize(speeds);
    console.log(
      `analysis on an idle server, one thread: median ${fmt(speed.median, 0)}× real time per core (goal ≥ 50×), ` +
        `slowest ${fmt(Math.min(...speeds), 0)}×; load ${load()}`,
    );

    // 2. Small calls, idle and while the backfill analyses every song.
    const created = await bench.app.inject({
      method: 'POST',
      url: '/api/auth/api-keys',
      headers: { authorization: `Bearer ${bench.token}` },
      payload: { name: 'bench' },
    });
    const apiKey = created.json<{ key: string }>().key;
    const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
    const rest = (method: string, query = '') => `${origin}/rest/${method}?${query}&apiKey=${encodeURIComponent(apiKey)}&v=1.16.1&c=bench&f=json`;
    const getJson = async (url: string) => {
      const response = await fetch(url);
      const body = (await response.json()) as { 'subsonic-response': Record<string, unknown> & { status: string } };
      if (body['subsonic-response'].status !== 'ok') throw new Error(`${url}: ${JSON.stringify(body)}`);
      return body['subsonic-response'];
    };
    const songId = report.imported[0]?.songId;
    const song = (await getJson(rest('getSong', `id=${songId}`)))['song'] as { albumId: string };
    const calls: [string, string][] = [
      ['ping', rest('ping')],
      ['getSong', rest('getSong', `id=${songId}`)],
      ['getAlbum', rest('getAlbum', `id=${song.albumId}`)],
    ];
    const measure = async (until?: () => boolean) => {
      const times = new Map<string, number[]>(calls.map(([name]) => [name, []]));
      for (let round = 0; round < ROUNDS && (until === undefined || !until()); round += 1) {
        for (const [name, url] of calls) {
          const started = performance.now();
          await getJson(url);
          times.get(name)?.push(performance.now() - started);
        }
      }
      return times;
    };
    await measure(); // warm-up
    const idle = await measure();
    const analysis = bench.app.encore.modules.internals(discoveryModule).analysis;
    let done = false;
    const backfill = analysis.backfill().finally(() => (done = true));
    const busy = await measure(() => done);
    const tally = await backfill;
    const idleAgain = await measure();
    console.log(`backfill: ${tally.analysed} analysed, ${tally.failed} failed; load ${load()}`);
    for (const [name] of calls) {
      const a = summarize(idle.get(name) ?? []);
      const b = summarize(busy.get(name) ?? []);
      const c = summarize(idleAgain.get(name) ?? []);
      console.log(
        `${name.padEnd(8)} idle p50 ${fmt(a.median)} / p95 ${fmt(a.p95)} ms; with analysis (${busy.get(name)?.length} calls) p50 ${fmt(b.median)} / p95 ${fmt(b.p95)} ms; ` +
          `idle after p95 ${fmt(c.p95)} ms; p95 with analysis / idle ${fmt(b.p95 / Math.max(a.p95, c.p95), 2)} (goal ≤ 1.3)`,
      );
    }
  } finally {
    await bench.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
