/**
 * Issue 14: a 50,000-song library. The rows go in through LibraryRepository.insertMany with
 * realistic titles, artists, albums, years and durations. Prints, for PGlite and (when
 * TEST_DATABASE_URL is set) PostgreSQL, the p95 of a music page (12, the compact view) at the
 * start, middle and end and in every sort, of searches (plain, accent-free, with a typo, a
 * whole album), each as a ratio to its goal; then PostgreSQL / PGlite, and the RSS of this
 * process holding the 50,000-song app at idle. Asserts nothing.
 */
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { songRow } from './scale-library.js';
import { songLikes, songs } from '../../server/src/features/library/library.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type Engine } from './bench-app.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 40);
const PAGE_GOAL_MS = 30;
const SEARCH_GOAL_MS = 40;
const IDLE_RSS_GOAL_MIB = 200;

const pages: [string, string][] = [
  ['page 1 (12, newest first)', '?limit=12'],
  ['middle page (offset 25,000)', `?limit=12&offset=${Math.floor(SONGS / 2)}`],
  ['last page', `?limit=12&offset=${SONGS - 12}`],
  ['page 1 by title', '?limit=12&sort=title'],
  ['page 1 by artist', '?limit=12&sort=artist'],
  ['page 1 by album', '?limit=12&sort=album'],
  ['page 100 by artist', '?limit=12&offset=1188&sort=artist'],
  ['favorites page 1', '?limit=12&favorites=true'],
];
const searches: [string, string][] = [
  ['search "beyonce" (accent-free)', '?limit=12&q=beyonce'],
  ['search "midnight river"', '?limit=12&q=midnight%20river'],
  ['search "bjork" p.2', '?limit=12&offset=12&q=bjork'],
  ['search "hollw" (a typo of a common word)', '?limit=12&q=hollw'],
  ['search "shaddows" (a typo)', '?limit=12&q=shaddows'],
  ['search "electirc garden" (a typo)', '?limit=12&q=electirc%20garden'],
  ['search "4711" (a number)', '?limit=12&q=4711'],
];

async function run(engine: Engine): Promise<Map<string, number>> {
  const bench = await startBenchApp(engine);
  const p95s = new Map<string, number>();
  try {
    const db = bench.app.encore.platform.database.db;
    const repository = new LibraryRepository(db);
    let started = Date.now();
    const rows = Array.from({ length: SONGS }, (_, i) => songRow(bench.userId, i));
    const added = await repository.insertMany(rows);
    const ids = await db.select({ id: songs.id }).from(songs);
    await db.insert(songLikes).values(ids.filter((_, i) => i % 20 === 0).map((row) => ({ userId: bench.userId, songId: row.id })));
    // What a running server's upkeep does within a minute on PGlite (autovacuum on PostgreSQL).
    await bench.app.encore.platform.upkeep?.runOnce();
    console.log(`\n${engine}: ${added} songs inserted through LibraryRepository.insertMany in ${Date.now() - started} ms`);
    // Measured as a server started on this library serves it: the embedded database sizes its
    // buffer cache to the data it finds at start-up.
    await bench.restart();
    started = Date.now();
    const headers = { authorization: `Bearer ${bench.token}` };
    console.log('| request | songs | total | median ms | p95 ms | goal ms | p95 / goal |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [label, query, goal] of [
      ...pages.map(([l, q]) => [l, q, PAGE_GOAL_MS] as const),
      ...searches.map(([l, q]) => [l, q, SEARCH_GOAL_MS] as const),
    ]) {
      const url = `/api/files${query}`;
      for (let i = 0; i < 5; i += 1) await bench.app.inject({ url, headers });
      const times: number[] = [];
      let count = 0;
      let total = '';
      for (let i = 0; i < RUNS; i += 1) {
        const { ms, value } = await timed(() => bench.app.inject({ url, headers }));
        if (value.statusCode !== 200) throw new Error(`${url}: ${value.statusCode} ${value.body}`);
        times.push(ms);
        count = value.json<unknown[]>().length;
        total = String(value.headers['x-total-count']);
      }
      const { median, p95 } = summarize(times);
      p95s.set(label, p95);
      console.log(`| ${label} | ${count} | ${total} | ${fmt(median)} | ${fmt(p95)} | ${goal} | ${fmt(p95 / goal, 2)} |`);
    }
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    global.gc?.();
    const rss = process.memoryUsage().rss / 2 ** 20;
    console.log(
      `\n${engine}: idle RSS of this process holding the ${SONGS}-song app: ${fmt(rss, 0)} MiB (goal ≤ ${IDLE_RSS_GOAL_MIB}; ratio ${fmt(rss / IDLE_RSS_GOAL_MIB, 2)})`,
    );
  } finally {
    await bench.close();
  }
  return p95s;
}

const results = new Map<Engine, Map<string, number>>();
for (const engine of benchEngines) results.set(engine, await run(engine));
const pglite = results.get('pglite');
const postgres = results.get('postgres');
if (pglite && postgres) {
  console.log('\n| request | PGlite p95 ms | PostgreSQL p95 ms | PostgreSQL / PGlite |');
  console.log('|---|---|---|---|');
  for (const [label, ms] of pglite) {
    const other = postgres.get(label) ?? Number.NaN;
    console.log(`| ${label} | ${fmt(ms)} | ${fmt(other)} | ${fmt(other / ms, 2)} |`);
  }
}
