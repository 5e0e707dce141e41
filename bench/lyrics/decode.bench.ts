/**
 * Decoding a song to 16 kHz mono float samples, as a transcription does first: a generated
 * four-minute 192 kbit/s stereo MP3 through the platform's ffmpeg (`decodeToPcm`, a stream
 * with backpressure), in times real time (audio seconds per wall second). Prints figures only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFfmpeg } from '../../server/src/platform/media/ffmpeg.js';

const SECONDS = 240;
const RUNS = 5;
const dir = mkdtempSync(path.join(tmpdir(), 'encore-bench-decode-'));
const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createFfmpeg>[0]['logger'];
try {
  const file = path.join(dir, 'song.mp3');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${SECONDS}:sample_rate=44100`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=d=${SECONDS}:a=0.1`,
    '-filter_complex',
    'amix=inputs=2,aformat=channel_layouts=stereo',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '192k',
    file,
  ]);
  const ffmpeg = createFfmpeg({ configuredPath: undefined, dataDir: dir, logger });
  const info = await ffmpeg.info();
  const times: number[] = [];
  let samples = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.hrtime.bigint();
    let bytes = 0;
    for await (const chunk of ffmpeg.decodeToPcm(file, { sampleRate: 16_000, sampleFormat: 'f32le' })) bytes += (chunk as Buffer).length;
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    samples = bytes / 4;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(`ffmpeg ${info.version} (${info.source}); ${SECONDS} s stereo MP3 -> ${samples} samples (16 kHz mono f32)`);
  console.log(`decode: median ${median.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms over ${RUNS} runs`);
  console.log(`speed: ${(SECONDS / (median / 1000)).toFixed(0)}x real time (median), ${(SECONDS / (times[0]! / 1000)).toFixed(0)}x (best)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
