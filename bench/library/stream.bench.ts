/**
 * Streaming: a 10 MB song through its signed play URL over real HTTP on loopback (whole file,
 * and in 1 MB Range requests as a seeking player makes them), next to reading the same file
 * from disk. The client runs `node:http` in a worker thread, as a player runs in another process
 * (the other core); `fetch` in the server's own thread is printed beside it. PGlite, local
 * storage. Prints figures only, each read also as a ratio to `createReadStream` (goal ≥ 0.8 for
 * the song). The Range requests also run against a bare `node:http` server that opens the file
 * and streams the range (no framework, no signature, no headers beyond the range's): the floor
 * of one HTTP request on this machine, and Encore's ratio to it.
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { newUploadKey } from '../../server/src/features/library/upload-key.js';
import { LocalStorage } from '../../server/src/platform/storage/local.storage.js';
import { fmt, startBenchApp, summarize, timed } from './bench-app.js';

const SIZE = 10 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const RUNS = 40;

const bench = await startBenchApp('pglite', { MAX_UPLOAD_MB: '20' });
try {
  const storage = bench.app.encore.platform.storage.local;
  if (!(storage instanceof LocalStorage)) throw new Error('expected local storage');
  const data = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i += 1) data[i] = (i * 31) & 0xff;
  const key = newUploadKey(bench.userId, 'big.mp3');
  await storage.put(key, data, { contentType: 'audio/mpeg' });
  const file = path.join(storage.root, ...key.split('/'));
  const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
  const url = new URL(await storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'audio/mpeg' }));
  const target = `${origin}${url.pathname}${url.search}`;
  const bare = createServer((request, response) => {
    const [start, end] = (/^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '') ?? []).slice(1).map(Number);
    void open(file, 'r').then(async (handle) => {
      const size = (await handle.stat()).size;
      const from = start ?? 0;
      const to = end ?? size - 1;
      response.writeHead(206, { 'content-length': to - from + 1, 'content-range': `bytes ${from}-${to}/${size}` });
      createReadStream('', { fd: handle, start: from, end: to, highWaterMark: CHUNK }).pipe(response);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareTarget = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/song`;

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
  // The client: one GET per message, answering the bytes it read (or the error's text).
  const client = new Worker(
    `const http = require('node:http');
     const { parentPort } = require('node:worker_threads');
     const agent = new http.Agent({ keepAlive: true });
     parentPort.on('message', ({ target, headers }) => {
       http.get(target, { headers, agent }, (response) => {
         let bytes = 0;
         response.on('data', (chunk) => { bytes += chunk.length; });
         response.on('end', () => parentPort.postMessage(response.statusCode === 200 || response.statusCode === 206 ? bytes : 'status ' + response.statusCode));
       }).on('error', (error) => parentPort.postMessage(String(error)));
     });`,
    { eval: true },
  );
  const getBytes = (headers: Record<string, string> = {}, from = target) =>
    new Promise<number>((resolve, reject) => {
      client.once('message', (answer: number | string) => (typeof answer === 'number' ? resolve(answer) : reject(new Error(answer))));
      client.postMessage({ target: from, headers });
    });
  const tenRanges = async (from: string) => {
    let bytes = 0;
    for (let start = 0; start < SIZE; start += CHUNK) bytes += await getBytes({ range: `bytes=${start}-${start + CHUNK - 1}` }, from);
    return bytes;
  };

  const cases: [string, () => Promise<number>][] = [
    ['disk: fs.readFile', async () => (await readFile(file)).length],
    ['disk: createReadStream', () => drain(createReadStream(file))],
    ['HTTP: whole file (200)', () => getBytes()],
    ['HTTP: bytes=0- (206)', () => getBytes({ range: 'bytes=0-' })],
    ['HTTP: ten 1 MB Range requests (206)', () => tenRanges(target)],
    ['bare node:http: the same ten Range requests', () => tenRanges(bareTarget)],
    ['HTTP: whole file through fetch() in this process', () => fetchBytes()],
  ];
  console.log(`\n${SIZE / 1024 / 1024} MB file, ${RUNS} runs each`);
  console.log('| read | median ms | p95 ms | MB/s (median) | / createReadStream (goal ≥ 0.8) |');
  console.log('|---|---|---|---|---|');
  // Rounds interleave the cases, so a slow moment of the machine falls on all of them alike.
  for (const [, work] of cases) for (let i = 0; i < 3; i += 1) await work();
  const times = cases.map((): number[] => []);
  for (let round = 0; round < RUNS; round += 1) {
    for (const [index, [label, work]] of cases.entries()) {
      const { ms, value } = await timed(work);
      if (value !== SIZE) throw new Error(`${label}: read ${value} bytes`);
      times[index]?.push(ms);
    }
  }
  const diskStream = summarize(times[1] ?? []).median;
  for (const [index, [label]] of cases.entries()) {
    const { median, p95 } = summarize(times[index] ?? []);
    const ratio = index >= 1 ? fmt(diskStream / median, 2) : '';
    console.log(`| ${label} | ${fmt(median)} | ${fmt(p95)} | ${fmt(SIZE / 1024 / 1024 / (median / 1000), 0)} | ${ratio} |`);
  }
  const encoreRanges = summarize(times[4] ?? []).median;
  const bareRanges = summarize(times[5] ?? []).median;
  console.log(`\nTen 1 MB Range requests, Encore / bare node:http (time ratio, 1.00 = no overhead): ${fmt(bareRanges / encoreRanges, 2)}`);
  await client.terminate();
  bare.closeAllConnections();
  await new Promise((resolve) => bare.close(resolve));
} finally {
  await bench.close();
}
