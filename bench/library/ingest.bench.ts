/**
 * Ingest throughput: upload-complete (stat, sniff, tags, cover, insert) on 100 generated
 * three-minute MP3s (128 kbit/s, ID3 tags, a 1000 x 1000 JPEG front cover, ~3 MB each), next to
 * music-metadata parsing the same files alone; then the cover thumbnails, made on their first
 * request and served stored after. PGlite, local storage. Prints figures only; `npm run bench`
 * runs it with the server's node options, as the product runs.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import sharp from 'sharp';
import { songs as songsTable } from '../../server/src/features/library/library.schema.js';
import { newUploadKey } from '../../server/src/features/library/upload-key.js';
import { id3v23 } from '../../server/test/support/audio-fixtures.js';
import { fmt, startBenchApp, summarize, timed } from './bench-app.js';

const FILES = 100;
const run = promisify(execFile);

function textFrame(id: string, text: string): Buffer {
  const content = Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]);
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  header.writeUInt32BE(content.length, 4);
  return Buffer.concat([header, content]);
}

function pictureFrame(jpeg: Buffer): Buffer {
  const content = Buffer.concat([Buffer.from([0]), Buffer.from('image/jpeg\0', 'latin1'), Buffer.from([3, 0]), jpeg]);
  const header = Buffer.alloc(10);
  header.write('APIC', 0, 'latin1');
  header.writeUInt32BE(content.length, 4);
  return Buffer.concat([header, content]);
}

async function makeFiles(dir: string): Promise<string[]> {
  const audioFile = path.join(dir, 'audio.mp3');
  await run('/usr/bin/ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=180',
    '-ac',
    '2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-id3v2_version',
    '0',
    audioFile,
  ]);
  const audio = await readFile(audioFile);
  // Noise compresses like a photo, not like a flat colour: a realistic cover size.
  const noise = Buffer.alloc(250 * 250 * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
  const files: string[] = [];
  for (let i = 0; i < FILES; i += 1) {
    const cover = await sharp(noise, { raw: { width: 250, height: 250, channels: 3 } })
      .resize(1000, 1000)
      .modulate({ hue: i * 3 })
      .jpeg({ quality: 85 })
      .toBuffer();
    const tag = id3v23([textFrame('TIT2', `Song ${i}`), textFrame('TPE1', `Artist ${i % 9}`), textFrame('TALB', 'Bench Album'), pictureFrame(cover)]);
    const file = path.join(dir, `song-${i}.mp3`);
    await writeFile(file, Buffer.concat([tag, audio]));
    files.push(file);
  }
  return files;
}

const dir = await mkdtemp(path.join(tmpdir(), 'encore-ingest-bench-'));
const bench = await startBenchApp('pglite');
try {
  const files = await makeFiles(dir);
  const bytes = (await Promise.all(files.map((file) => readFile(file)))).reduce((sum, data) => sum + data.length, 0);
  console.log(`\n${FILES} files, ${fmt(bytes / FILES / 1024 / 1024, 2)} MB each on average`);

  const parseTimes: number[] = [];
  for (const file of files) parseTimes.push((await timed(() => parseFile(file, { duration: true }))).ms);
  const parseTotal = parseTimes.reduce((a, b) => a + b, 0);

  const storage = bench.app.encore.platform.storage;
  const keys: string[] = [];
  for (const file of files) {
    const key = newUploadKey(bench.userId, path.basename(file));
    await storage.put(key, await readFile(file), { contentType: 'audio/mpeg' });
    keys.push(key);
  }
  const headers = { authorization: `Bearer ${bench.token}` };
  const complete = (key: string, i: number) =>
    bench.app.inject({
      method: 'POST',
      url: '/api/upload/upload-complete',
      headers,
      payload: { fileName: `song-${i}.mp3`, fileType: 'audio/mpeg', s3key: key, folderId: 0 },
    });

  const sequential: number[] = [];
  const half = FILES / 2;
  const seqStart = Date.now();
  for (let i = 0; i < half; i += 1) {
    const { ms, value } = await timed(() => complete(keys[i] ?? '', i));
    if (value.statusCode !== 201) throw new Error(`upload-complete ${value.statusCode} ${value.body}`);
    sequential.push(ms);
  }
  const seqSeconds = (Date.now() - seqStart) / 1000;

  const parallelStart = Date.now();
  let next = half;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < FILES) {
        const i = next;
        next += 1;
        const response = await complete(keys[i] ?? '', i);
        if (response.statusCode !== 201) throw new Error(`upload-complete ${response.statusCode}`);
      }
    }),
  );
  const parallelSeconds = (Date.now() - parallelStart) / 1000;

  // Thumbnails are made when first asked for (as the music page does after an upload).
  const songs = (await bench.app.encore.platform.database.db.select({ storageKey: songsTable.storageKey }).from(songsTable)).map((song) => song.storageKey);
  const thumbnail = async (fileKey: string) => {
    const response = await bench.app.inject({ url: `/api/files/extract-image?fileKey=${encodeURIComponent(fileKey)}&size=thumb`, headers });
    if (response.statusCode !== 200) throw new Error(`thumbnail ${response.statusCode}`);
  };
  const firstThumbs: number[] = [];
  const storedThumbs: number[] = [];
  for (const fileKey of songs.slice(0, 30)) firstThumbs.push((await timed(() => thumbnail(fileKey))).ms);
  for (const fileKey of songs.slice(0, 30)) storedThumbs.push((await timed(() => thumbnail(fileKey))).ms);

  const s = summarize(sequential);
  const p = summarize(parseTimes);
  const ft = summarize(firstThumbs);
  const st = summarize(storedThumbs);
  console.log('| what | songs/s | median ms | p95 ms |');
  console.log('|---|---|---|---|');
  console.log(`| music-metadata parseFile alone (duration: true), sequential | ${fmt(FILES / (parseTotal / 1000))} | ${fmt(p.median)} | ${fmt(p.p95)} |`);
  console.log(`| upload-complete, one at a time (${half} songs) | ${fmt(half / seqSeconds)} | ${fmt(s.median)} | ${fmt(s.p95)} |`);
  console.log(`| upload-complete, 4 concurrent (${FILES - half} songs) | ${fmt((FILES - half) / parallelSeconds)} | - | - |`);
  console.log(`| cover thumbnail, first request (made and stored then) | - | ${fmt(ft.median)} | ${fmt(ft.p95)} |`);
  console.log(`| cover thumbnail, later requests (stored) | - | ${fmt(st.median)} | ${fmt(st.p95)} |`);
  console.log(
    `\nOne at a time / music-metadata alone: ${fmt(half / seqSeconds / (FILES / (parseTotal / 1000)), 3)}; one at a time / goal (40 songs/s): ${fmt(half / seqSeconds / 40, 2)}`,
  );
} finally {
  await bench.close();
  await rm(dir, { recursive: true, force: true });
}
