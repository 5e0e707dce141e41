/**
 * Streaming: a 10 MB song through its signed play URL over real HTTP on loopback (whole file,
 * and in 1 MB Range requests as a seeking player makes them), next to reading the same file
 * from disk. PGlite, local storage. Prints figures only.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { newUploadKey } from '../../server/src/features/library/upload-key.js';
import { LocalStorage } from '../../server/src/platform/storage/local.storage.js';
import { fmt, startBenchApp, summarize, timed } from './bench-app.js';

const SIZE = 10 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const RUNS = 20;

const bench = await startBenchApp('pglite', { MAX_UPLOAD_MB: '20' });
try {
  const storage = bench.app.encore.platform.storage;
  if (!(storage instanceof LocalStorage)) throw new Error('expected local storage');
  const data = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i += 1) data[i] = (i * 31) & 0xff;
  const key = newUploadKey(bench.userId, 'big.mp3');
  await storage.put(key, data, { contentType: 'audio/mpeg' });
  const file = path.join(storage.root, ...key.split('/'));
  const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
  const url = new URL(await storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'audio/mpeg' }));
  const target = `${origin}${url.pathname}${url.search}`;

  const drain = async (stream: AsyncIterable<Uint8Array>) => {
    let bytes = 0;
    for await (const chunk of stream) bytes += chunk.length;
    return bytes;
  };
  const fetchBytes = async (headers: Record<string, string> = {}) => {
    const response = await fetch(target, { headers });
    if (response.status !== 200 && response.status !== 206) throw new Error(`status ${response.status}`);
    return drain(response.body ?? (async function* () {})());
  };

  const cases: [string, () => Promise<number>][] = [
    ['disk: fs.readFile', async () => (await readFile(file)).length],
    ['disk: createReadStream', () => drain(createReadStream(file))],
    ['HTTP: whole file (200)', () => fetchBytes()],
    ['HTTP: bytes=0- (206)', () => fetchBytes({ range: 'bytes=0-' })],
    [
      'HTTP: ten 1 MB Range requests (206)',
      async () => {
        let bytes = 0;
        for (let start = 0; start < SIZE; start += CHUNK) bytes += await fetchBytes({ range: `bytes=${start}-${start + CHUNK - 1}` });
        return bytes;
      },
    ],
  ];
  console.log(`\n${SIZE / 1024 / 1024} MB file, ${RUNS} runs each`);
  console.log('| read | median ms | p95 ms | MB/s (median) |');
  console.log('|---|---|---|---|');
  for (const [label, work] of cases) {
    for (let i = 0; i < 3; i += 1) await work();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const { ms, value } = await timed(work);
      if (value !== SIZE) throw new Error(`${label}: read ${value} bytes`);
      times.push(ms);
    }
    const { median, p95 } = summarize(times);
    console.log(`| ${label} | ${fmt(median)} | ${fmt(p95)} | ${fmt(SIZE / 1024 / 1024 / (median / 1000), 0)} |`);
  }
} finally {
  await bench.close();
}
