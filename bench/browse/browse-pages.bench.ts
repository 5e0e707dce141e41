/**
 * Issue 38's speed: the web API's browse pages on the 50,000-song library of `scale-library.ts`
 * (2,000 artists, 6,000 albums; `SCALE_SONGS` to change), on PGlite and, with
 * TEST_DATABASE_URL, PostgreSQL. Each answer is timed on the server side of `inject` (no
 * network): pages of artists and albums in every sort and filter, walking the cursor, an album
 * page and an artist page, the genres. Also the first call (the index built from the songs)
 * and what the index holds in memory (heap after a collection, before and after it is built;
 * run with `node --expose-gc` for that figure). Goal: p95 ≤ 30 ms. Prints figures only.
 */
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { songRow } from '../library/scale-library.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type BenchApp, type Engine } from '../library/bench-app.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 30);
const GOAL_MS = 30;
const PAGE = 60;

interface Page {
  items: { id: string }[];
  nextCursor: string | null;
}

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function get<T>(bench: BenchApp, url: string): Promise<{ ms: number; body: T }> {
  const { ms, value } = await timed(() => bench.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bench.token}` } }));
  if (value.statusCode !== 200) throw new Error(`${url} answered ${value.statusCode}: ${value.body.slice(0, 200)}`);
  return { ms, body: value.json<T>() };
}

function line(label: string, times: number[]): void {
  const { median, p95 } = summarize(times);
  console.log(`| ${label} | ${fmt(median)} | ${fmt(p95)} | ${p95 <= GOAL_MS ? 'yes' : 'NO'} |`);
}

async function run(engine: Engine): Promise<void> {
  const bench = await startBenchApp(engine);
  try {
    const repository = new LibraryRepository(bench.app.encore.platform.database.db);
    for (let start = 0; start < SONGS; start += 5_000)
      await repository.insertMany(Array.from({ length: Math.min(5_000, SONGS - start) }, (_, i) => songRow(bench.userId, start + i)));
    await bench.app.encore.platform.upkeep?.runOnce();
    await bench.restart();

    const before = heapMb();
    const first = await get<Page>(bench, `/api/albums?limit=${PAGE}`);
    const after = heapMb();
    console.log(
      `\n${engine}, ${SONGS} songs: first album page (the index built) ${fmt(first.ms)} ms; heap ${fmt(before)} → ${fmt(after)} MiB (${fmt(((after - before) * 2 ** 20) / SONGS, 0)} bytes per song)`,
    );
    console.log('| call | median ms | p95 ms | p95 ≤ 30 ms |');
    console.log('|---|---|---|---|');

    for (const sort of ['name', 'recent', 'plays']) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await get<Page>(bench, `/api/artists?sort=${sort}&limit=${PAGE}`)).ms);
      line(`artists, sort=${sort}`, times);
    }
    for (const sort of ['recent', 'name', 'artist', 'year', 'plays', 'random']) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await get<Page>(bench, `/api/albums?sort=${sort}&limit=${PAGE}`)).ms);
      line(`albums, sort=${sort}`, times);
    }
    const filtered: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      filtered.push((await get<Page>(bench, `/api/albums?genre=Jazz&yearFrom=1970&yearTo=1979&limit=${PAGE}`)).ms);
      filtered.push((await get<Page>(bench, `/api/albums?q=golden&limit=${PAGE}`)).ms);
    }
    line('albums, genre + decade / search', filtered);

    // Walking the cursor: twenty pages deep, as a long scroll does.
    const walk: number[] = [];
    let cursor: string | null = null;
    const albumIds: string[] = [];
    for (let i = 0; i < 20; i++) {
      const page: { ms: number; body: Page } = await get<Page>(
        bench,
        `/api/albums?sort=name&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      walk.push(page.ms);
      albumIds.push(...page.body.items.map((item) => item.id));
      cursor = page.body.nextCursor;
      if (!cursor) break;
    }
    line('albums, sort=name, pages 1-20 by cursor', walk);

    const artistIds = (await get<Page>(bench, `/api/artists?sort=name&limit=${PAGE}`)).body.items.map((item) => item.id);
    const albumPages: number[] = [];
    for (let i = 0; i < RUNS; i++) albumPages.push((await get<unknown>(bench, `/api/albums/${encodeURIComponent(albumIds[(i * 37) % albumIds.length]!)}`)).ms);
    line('album page', albumPages);
    const artistPages: number[] = [];
    for (let i = 0; i < RUNS; i++)
      artistPages.push((await get<unknown>(bench, `/api/artists/${encodeURIComponent(artistIds[(i * 7) % artistIds.length]!)}`)).ms);
    line('artist page', artistPages);
    const genres: number[] = [];
    for (let i = 0; i < RUNS; i++) genres.push((await get<unknown>(bench, '/api/genres')).ms);
    line('genres', genres);
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
