/**
 * Issue 28: the Subsonic API through real HTTP on loopback with an API key, on the scale bench's
 * 50,000 songs (`scale-library.ts`; `SCALE_SONGS`, `SCALE_RUNS`): the first call (the browse
 * index built), then median and p95 of `search3` with an empty query in pages of 500 songs
 * through the whole library (as Symfonium syncs) and of `getAlbumList2` newest pages of 50, each
 * as p95 / goal (50 ms), and of `getAlbumList2` frequent (by the caller's plays: 5,000 songs of 600 albums played);
 * then a 10 MB song through `/rest/stream` next to the web app's signed
 * /api storage URL of the same song (MB/s, and the ratio). PGlite, and PostgreSQL with
 * TEST_DATABASE_URL. Asserts nothing.
 */
import { eq } from 'drizzle-orm';
import { newUploadKey } from '../../server/src/features/library/upload-key.js';
import { songCataloguePort } from '../../server/src/features/library/library.port.js';
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { songPlays } from '../../server/src/features/listening/listening.schema.js';
import { songs } from '../../server/src/features/library/library.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type Engine } from '../library/bench-app.js';
import { songRow } from '../library/scale-library.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 40);
const STREAM_RUNS = 15;
const GOAL_MS = 50;
const SIZE = 10 * 1024 * 1024;

async function run(engine: Engine): Promise<void> {
  const bench = await startBenchApp(engine, { MAX_UPLOAD_MB: '20' });
  try {
    const db = bench.app.encore.platform.database.db;
    await new LibraryRepository(db).insertMany(Array.from({ length: SONGS }, (_, i) => songRow(bench.userId, i)));
    // One song's audio is a real 10 MB object in storage: the one both doors stream.
    const data = Buffer.alloc(SIZE);
    for (let i = 0; i < SIZE; i += 1) data[i] = (i * 31) & 0xff;
    const key = newUploadKey(bench.userId, 'big.mp3');
    await bench.app.encore.platform.storage.put(key, data, { contentType: 'audio/mpeg' });
    const [big] = await db.select({ id: songs.id }).from(songs).limit(1);
    if (!big) throw new Error('no songs inserted');
    await db.update(songs).set({ storageKey: key, size: SIZE }).where(eq(songs.id, big.id));
    const created = await bench.app.inject({
      method: 'POST',
      url: '/api/auth/api-keys',
      headers: { authorization: `Bearer ${bench.token}` },
      payload: { name: 'bench' },
    });
    const apiKey = created.json<{ key: string }>().key;
    // The caller has played 5,000 songs (one in ten), up to five times each.
    const plays = Array.from({ length: 5_000 }, (_, i) => ({
      userId: bench.userId,
      songId: big.id + i * 10,
      playCount: 1 + (i % 5),
      lastPlayedAt: new Date(Date.now() - i * 60_000),
    }));
    for (let i = 0; i < plays.length; i += 1000) await db.insert(songPlays).values(plays.slice(i, i + 1000));
    await bench.app.encore.platform.upkeep?.runOnce();
    await bench.restart();
    const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
    const rest = (method: string, query: string) => `${origin}/rest/${method}?${query}&apiKey=${encodeURIComponent(apiKey)}&v=1.16.1&c=bench&f=json`;
    const getJson = async (url: string) => {
      const response = await fetch(url);
      const body = (await response.json()) as { 'subsonic-response': Record<string, unknown> & { status: string } };
      if (body['subsonic-response'].status !== 'ok') throw new Error(`${url}: ${JSON.stringify(body)}`);
      return body['subsonic-response'];
    };

    const first = await timed(() => getJson(rest('getAlbumList2', 'type=newest&size=50')));
    console.log(`\n${engine}: ${SONGS} songs; first /rest call (browse index built): ${fmt(first.ms)} ms`);
    console.log('| call over HTTP | items | median ms | p95 ms | p95 / goal (50 ms) |');
    console.log('|---|---|---|---|---|');
    const measure = async (label: string, work: (i: number) => Promise<number>) => {
      for (let i = 0; i < 3; i += 1) await work(i);
      const times: number[] = [];
      let items = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const { ms, value } = await timed(() => work(i));
        times.push(ms);
        items = value;
      }
      const { median, p95 } = summarize(times);
      console.log(`| ${label} | ${items} | ${fmt(median)} | ${fmt(p95)} | ${fmt(p95 / GOAL_MS, 2)} |`);
    };
    await measure('search3 query="" songCount=500, songOffset stepping through the library', async (i) => {
      const offset = (i * 500) % SONGS;
      const answer = await getJson(rest('search3', `query=%22%22&artistCount=0&albumCount=0&songCount=500&songOffset=${offset}`));
      return ((answer['searchResult3'] as { song?: unknown[] }).song ?? []).length;
    });
    await measure('getAlbumList2 type=newest size=50, offset stepping', async (i) => {
      const answer = await getJson(rest('getAlbumList2', `type=newest&size=50&offset=${i * 50}`));
      return ((answer['albumList2'] as { album?: unknown[] }).album ?? []).length;
    });
    await measure('getAlbumList2 type=frequent size=50 (5,000 songs of 600 albums played), offset stepping', async (i) => {
      const answer = await getJson(rest('getAlbumList2', `type=frequent&size=50&offset=${(i * 50) % 550}`));
      return ((answer['albumList2'] as { album?: unknown[] }).album ?? []).length;
    });

    // Streams: the same 10 MB through /rest/stream and through the web app's signed storage URL.
    const signed = new URL(await bench.app.encore.modules.port(songCataloguePort).streamUrl(big.id, 3600));
    const cases: [string, string][] = [
      ['web app: signed /api storage URL', `${origin}${signed.pathname}${signed.search}`],
      ['Subsonic: /rest/stream (original bytes)', rest('stream', `id=${big.id}`)],
    ];
    const read = async (url: string) => {
      const response = await fetch(url);
      if (response.status !== 200) throw new Error(`${url}: status ${response.status}`);
      let bytes = 0;
      for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).length;
      if (bytes !== SIZE) throw new Error(`${url}: read ${bytes} bytes`);
      return bytes;
    };
    for (const [, url] of cases) for (let i = 0; i < 3; i += 1) await read(url);
    const times = cases.map((): number[] => []);
    // Rounds interleave the two, so a slow moment of the machine falls on both alike.
    for (let round = 0; round < STREAM_RUNS; round += 1) {
      for (const [index, [, url]] of cases.entries()) times[index]?.push((await timed(() => read(url))).ms);
    }
    console.log(`\n${engine}: a 10 MB song over loopback HTTP, fetch() in this process, ${STREAM_RUNS} runs each`);
    console.log('| stream | median ms | p95 ms | MB/s (median) |');
    console.log('|---|---|---|---|');
    const medians = cases.map(([label], index) => {
      const { median, p95 } = summarize(times[index] ?? []);
      console.log(`| ${label} | ${fmt(median)} | ${fmt(p95)} | ${fmt(SIZE / 2 ** 20 / (median / 1000), 0)} |`);
      return median;
    });
    console.log(`Subsonic / web app throughput (1.00 = the same): ${fmt((medians[0] ?? 0) / (medians[1] ?? 1), 2)}`);
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
