/**
 * Subsonic `stream` transcoding (issue 28): a 60 s generated FLAC (stereo pink noise, 44.1 kHz)
 * through the real `/rest/stream?maxBitRate=128` over loopback HTTP, transcoded by ffmpeg to
 * 128 kbit/s Opus in Ogg as it is sent. Prints the speed as × real time (goal ≥ 20×; libopus
 * encodes on one thread, so this is one core) and the time to the first byte, median of RUNS.
 * PGlite, local storage. Figures only.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fmt, startBenchApp, summarize } from '../library/bench-app.js';

const SECONDS = 60;
const RUNS = Number(process.env['TRANSCODE_RUNS'] ?? 5);
const GOAL = 20;

const dir = await mkdtemp(path.join(tmpdir(), 'encore-transcode-bench-'));
const bench = await startBenchApp('pglite', { MAX_UPLOAD_MB: '50' });
try {
  const flac = path.join(dir, 'noise.flac');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=duration=${SECONDS}:color=pink:amplitude=0.3:sample_rate=44100`,
    '-ac',
    '2',
    '-c:a',
    'flac',
    flac,
  ]);
  const auth = { authorization: `Bearer ${bench.token}` };
  const presigned = (await bench.app.inject({ url: '/api/upload/presigned-url?fileName=noise.flac&contentType=audio%2Fflac', headers: auth })).json<{
    url: string;
    key: string;
  }>();
  const target = new URL(presigned.url, 'http://encore.bench');
  const put = await bench.app.inject({
    method: 'PUT',
    url: target.pathname + target.search,
    headers: { 'content-type': 'audio/flac' },
    payload: await readFile(flac),
  });
  if (put.statusCode >= 300) throw new Error(`upload failed: ${put.statusCode} ${put.body}`);
  const complete = await bench.app.inject({
    method: 'POST',
    url: '/api/upload/upload-complete',
    headers: auth,
    payload: { fileName: 'noise.flac', s3key: presigned.key, fileType: 'audio/flac' },
  });
  const song = complete.json<{ id: number; bitrate: number | null }>();
  const apiKey = (await bench.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: auth, payload: { name: 'Bench' } })).json<{ key: string }>().key;
  const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${origin}/rest/stream?apiKey=${encodeURIComponent(apiKey)}&v=1.16.1&c=bench&id=${song.id}&maxBitRate=128`;

  const once = async () => {
    const started = performance.now();
    const response = await fetch(url);
    if (response.headers.get('content-type') !== 'audio/ogg')
      throw new Error(`not a transcode: ${response.headers.get('content-type')} ${await response.text()}`);
    let firstByte = 0;
    let bytes = 0;
    for await (const chunk of response.body ?? (async function* () {})()) {
      if (bytes === 0) firstByte = performance.now() - started;
      bytes += (chunk as Uint8Array).length;
    }
    return { total: performance.now() - started, firstByte, bytes };
  };
  await once(); // warm: ffmpeg's first start, the page cache
  const results = [];
  for (let run = 0; run < RUNS; run += 1) results.push(await once());
  const total = summarize(results.map((result) => result.total));
  const firstByte = summarize(results.map((result) => result.firstByte));
  const kbps = ((results[0]?.bytes ?? 0) * 8) / SECONDS / 1000;
  const speed = (SECONDS * 1000) / total.median;
  console.log(`source: ${SECONDS} s FLAC, ${Math.round((song.bitrate ?? 0) / 1000)} kbit/s; answer ${kbps.toFixed(0)} kbit/s Opus in Ogg`);
  console.log(`transcode ${SECONDS} s to 128k Opus via /rest/stream: median ${fmt(total.median)} ms, p95 ${fmt(total.p95)} ms (${RUNS} runs)`);
  console.log(`speed: ${speed.toFixed(1)}× real time (goal ≥ ${GOAL}×) ${speed >= GOAL ? 'ok' : 'BELOW GOAL'}`);
  console.log(`time to first byte: median ${fmt(firstByte.median)} ms, p95 ${fmt(firstByte.p95)} ms`);
} finally {
  await bench.close();
  await rm(dir, { recursive: true, force: true });
}
