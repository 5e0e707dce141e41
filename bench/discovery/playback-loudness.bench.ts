/**
 * The playback loudness measurement of issue 30 (what ReplayGain comes from), as the analysis
 * job runs it beside the features: a generated 3-minute 128 kbit/s stereo MP3 at 44.1 kHz (a
 * different pink noise on each side, a kick and chords in the middle) decoded by the platform's
 * ffmpeg to 48 kHz stereo floats and fed to the BS.1770 meter and the 4× true-peak meter.
 * `LOUDNESS_RUNS` (5) runs after a warm-up: seconds and times real time, median and worst;
 * then ffmpeg's own ebur128 filter (true peak on) on the same file, for its time and its values
 * beside Encore's, and the analysis's 22.05 kHz mono reading that this measurement replaces.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { collectPcm } from '../../server/src/features/discovery/analysis/collect-pcm.js';
import { measureLoudness } from '../../server/src/features/discovery/analysis/loudness.js';
import { measurePlaybackOfFile } from '../../server/src/features/discovery/analysis/playback-loudness.js';
import { createFfmpeg } from '../../server/src/platform/media/ffmpeg.js';

const SECONDS = 180;
const RUNS = Number(process.env['LOUDNESS_RUNS'] ?? 5);
const run = promisify(execFile);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const db = (linear: number) => (20 * Math.log10(linear)).toFixed(2);

const dir = await mkdtemp(path.join(tmpdir(), 'encore-loudness-bench-'));
try {
  const period = 60 / 124;
  const centre = `0.5*sin(2*PI*55*t)*exp(-25*mod(t,${period}))+0.1*(sin(2*PI*220*t)+sin(2*PI*261.63*t)+sin(2*PI*329.63*t))`;
  const song = path.join(dir, 'song.mp3');
  // Pink noise, a different one on each side (what a stereo mix's width is), over a centred kick and chords.
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...['-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.25:r=44100:d=${SECONDS}:seed=1`],
    ...['-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.25:r=44100:d=${SECONDS}:seed=2`],
    ...['-f', 'lavfi', '-i', `aevalsrc='${centre}':s=44100:d=${SECONDS}`],
    '-filter_complex',
    '[0][1]amerge=inputs=2[wide];[2]pan=stereo|c0=c0|c1=c0[middle];[wide][middle]amix=inputs=2:normalize=0',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    song,
  ]);
  const ffmpeg = createFfmpeg({ dataDir: dir, logger: quiet });
  const once = async () => {
    const started = performance.now();
    const measured = await measurePlaybackOfFile(ffmpeg, song, { timeoutMs: 600_000 });
    return { seconds: (performance.now() - started) / 1000, measured };
  };
  await once();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const worst = times[times.length - 1]!;
  const { measured } = runs[0]!;
  console.log(`playback loudness of a ${SECONDS} s stereo MP3 (decode to 48 kHz stereo + BS.1770 + 4x true peak), ${RUNS} runs:`);
  console.log(`  median ${median.toFixed(2)} s (${(SECONDS / median).toFixed(0)}x real time), worst ${worst.toFixed(2)} s (${(SECONDS / worst).toFixed(0)}x)`);

  const started = performance.now();
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', song, '-af', 'ebur128=peak=sample+true', '-f', 'null', '-']);
  const ebur128Seconds = (performance.now() - started) / 1000;
  const summary = stderr.split('Summary:').pop() ?? '';
  const pick = (pattern: RegExp) => pattern.exec(summary)?.[1] ?? '?';
  console.log(`  ffmpeg ebur128 (true peak) on the same file: ${ebur128Seconds.toFixed(2)} s (${(SECONDS / ebur128Seconds).toFixed(0)}x real time)`);
  console.log(
    `  integrated: Encore ${measured.integratedLufs.toFixed(2)} LUFS, ebur128 ${pick(/I:\s+(-?[\d.]+) LUFS/u)} LUFS; ` +
      `LRA: Encore ${measured.rangeLu.toFixed(2)} LU, ebur128 ${pick(/LRA:\s+(-?[\d.]+) LU/u)} LU`,
  );
  console.log(
    `  peaks: Encore sample ${db(measured.samplePeak)} dBFS, true ${db(measured.truePeak)} dBTP; ` +
      `ebur128 sample ${pick(/Sample peak:\s+Peak:\s+(-?[\d.]+)/u)}, true ${pick(/True peak:\s+Peak:\s+(-?[\d.]+)/u)}`,
  );
  const mono = await collectPcm(ffmpeg.decodeToPcm(song, { sampleRate: 22_050, sampleFormat: 'f32le' }), 22_050 * SECONDS * 2);
  console.log(
    `  the analysis's 22.05 kHz mono mix reads ${measureLoudness(mono.samples, 22_050).integratedLufs.toFixed(2)} LUFS (what ReplayGain no longer uses)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
