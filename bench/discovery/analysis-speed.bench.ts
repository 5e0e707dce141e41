/**
 * Sonic analysis of one song as the analysis job does it (issue 12's budget: a 3-minute song
 * in under 4 s, 50× real time or more, on one core, with bounded memory): a generated
 * 3-minute 128 kbit/s stereo MP3 at 44.1 kHz (kick, snare, hats, chords) decoded by the
 * platform's ffmpeg to 22.05 kHz mono float samples, then `analyseSignal` (essentia.js tempo,
 * key, danceability, dynamic complexity; loudness; spectral features). `ANALYSIS_RUNS` (5)
 * runs after one warm-up: decode, analysis and the whole, median and worst, as times real
 * time; the analysis's CPU time (what one core spends on it, whatever else the machine runs);
 * the machine's load average; the process's peak RSS (essentia's WASM memory included) before
 * and after.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { analyseSignal, ANALYSIS_SAMPLE_RATE } from '../../server/src/features/discovery/analysis/analyse-signal.js';
import { collectPcm } from '../../server/src/features/discovery/analysis/collect-pcm.js';
import { MAX_ANALYSED_SECONDS } from '../../server/src/features/discovery/analysis/analysis.service.js';
import { createFfmpeg } from '../../server/src/platform/media/ffmpeg.js';

const SECONDS = 180;
const RUNS = Number(process.env['ANALYSIS_RUNS'] ?? 5);
const run = promisify(execFile);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const peakMiB = () => process.resourceUsage().maxRSS / 1024;

const dir = await mkdtemp(path.join(tmpdir(), 'encore-analysis-bench-'));
try {
  const period = 60 / 124;
  const music = [
    `0.6*sin(2*PI*55*t)*exp(-25*mod(t,${period}))`,
    `0.25*(2*random(0)-1)*exp(-30*mod(t+${period},${2 * period}))`,
    `0.15*(2*random(1)-1)*exp(-60*mod(t+${period / 2},${period}))`,
    `0.12*(sin(2*PI*220*t)+sin(2*PI*261.63*t)+sin(2*PI*329.63*t))`,
  ].join('+');
  const song = path.join(dir, 'song.mp3');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${music}|${music}':s=44100:d=${SECONDS}`,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    song,
  ]);
  const ffmpeg = createFfmpeg({ dataDir: dir, logger: quiet });
  const peakBefore = peakMiB();

  const once = async () => {
    const started = performance.now();
    const pcm = ffmpeg.decodeToPcm(song, { sampleRate: ANALYSIS_SAMPLE_RATE, sampleFormat: 'f32le' });
    const { samples } = await collectPcm(pcm, MAX_ANALYSED_SECONDS * ANALYSIS_SAMPLE_RATE);
    const decoded = performance.now();
    const cpu = process.cpuUsage();
    const { features } = analyseSignal(samples);
    const used = process.cpuUsage(cpu);
    const done = performance.now();
    return {
      decodeMs: decoded - started,
      analysisMs: done - decoded,
      // The analysis runs on this thread alone, so its CPU time is one core's work.
      analysisCpuMs: (used.user + used.system) / 1000,
      totalMs: done - started,
      bpm: features.bpm,
      key: `${features.key} ${features.mode}`,
    };
  };
  const warm = await once();
  const runs: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await once());

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const row = (label: string, pick: (r: (typeof runs)[number]) => number) => {
    const values = runs.map(pick);
    const typical = median(values);
    const worst = Math.max(...values);
    console.log(
      `| ${label} | ${(typical / 1000).toFixed(2)} s | ${((SECONDS * 1000) / typical).toFixed(0)}× | ${(worst / 1000).toFixed(2)} s | ${((SECONDS * 1000) / worst).toFixed(0)}× |`,
    );
  };
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`\nload average ${load} (1, 5, 15 min); wall times grow with the load, CPU time much less`);
  console.log(`A ${SECONDS / 60}-minute song (found ${warm.bpm} BPM, ${warm.key}; generated at 124 BPM, A minor chord), ${RUNS} runs after a warm-up`);
  console.log('| step | median | × real time | worst | × real time |');
  console.log('|---|---|---|---|---|');
  row('decode to 22.05 kHz mono (ffmpeg)', (r) => r.decodeMs);
  row('analysis (essentia.js and Encore)', (r) => r.analysisMs);
  row('analysis, CPU time of one core', (r) => r.analysisCpuMs);
  row('whole (goal < 4 s, ≥ 50×)', (r) => r.totalMs);
  console.log(`peak RSS of the process: ${peakBefore.toFixed(0)} MiB before the first song, ${peakMiB().toFixed(0)} MiB after ${RUNS + 1} songs`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
