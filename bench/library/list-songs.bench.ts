/**
 * GET /api/files on a 10,000-song library (rows inserted in bulk, a quarter with lyrics, a
 * tenth liked): median and p95 for the whole list, a page, a search and favourites, on PGlite
 * and (TEST_DATABASE_URL) PostgreSQL. Prints figures; asserts nothing.
 */
import { songLikes, songs } from '../../server/src/features/library/library.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type Engine } from './bench-app.js';

const SONGS = 10_000;
const LYRICS = 'A line of a song that goes on for a while\n'.repeat(40);

const cases: [string, string, number][] = [
  ['whole list (no limit)', '/api/files', 30],
  ['page: limit=12&offset=4800', '/api/files?limit=12&offset=4800', 200],
  ['first page: limit=50', '/api/files?limit=50', 200],
  ['search q=song 42 (limit=50)', '/api/files?q=song%2042&limit=50', 200],
  ['search q=artist 7 (no limit)', '/api/files?q=artist%207', 50],
  ['favorites=true', '/api/files?favorites=true', 100],
  ['owner=true&limit=50', '/api/files?owner=true&limit=50', 200],
];

async function run(engine: Engine): Promise<void> {
  const bench = await startBenchApp(engine);
  try {
    const db = bench.app.encore.platform.database.db;
    const started = Date.now();
    for (let from = 0; from < SONGS; from += 1000) {
      const rows = Array.from({ length: 1000 }, (_, j) => {
        const i = from + j;
        return {
          ownerId: bench.userId,
          displayName: `Artist ${i % 97} - Song ${i}`,
          fileName: `song-${i}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${bench.userId}/bench-${i}/song.mp3`,
          size: 4_000_000 + i,
          uploadedAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
          title: `Song ${i}`,
          artist: `Artist ${i % 97}`,
          album: `Album ${i % 300}`,
          genre: 'Rock',
          year: 1970 + (i % 50),
          trackNumber: (i % 12) + 1,
          durationSeconds: 180 + (i % 120),
          bitrate: 192_000,
          sampleRate: 44_100,
          transcript: i % 4 === 0 ? LYRICS : null,
          coverKey: i % 2 === 0 ? `covers/bench-${i}/full.jpg` : null,
          coverThumbKey: i % 2 === 0 ? `covers/bench-${i}/thumb.jpg` : null,
        };
      });
      const inserted = await db.insert(songs).values(rows).returning({ id: songs.id });
      const liked = inserted.filter((_, j) => (from + j) % 10 === 0).map((row) => ({ userId: bench.userId, songId: row.id }));
      await db.insert(songLikes).values(liked);
    }
    console.log(`\n${engine}: ${SONGS} songs inserted in ${Date.now() - started} ms`);
    console.log('| request | songs | KB | median ms | p95 ms |');
    console.log('|---|---|---|---|---|');
    const headers = { authorization: `Bearer ${bench.token}` };
    for (const [label, url, runs] of cases) {
      for (let i = 0; i < 5; i += 1) await bench.app.inject({ url, headers });
      const times: number[] = [];
      let count = 0;
      let bytes = 0;
      for (let i = 0; i < runs; i += 1) {
        const { ms, value } = await timed(() => bench.app.inject({ url, headers }));
        if (value.statusCode !== 200) throw new Error(`${url}: ${value.statusCode} ${value.body}`);
        times.push(ms);
        count = value.json<unknown[]>().length;
        bytes = value.rawPayload.length;
      }
      const { median, p95 } = summarize(times);
      console.log(`| ${label} | ${count} | ${fmt(bytes / 1024, 0)} | ${fmt(median)} | ${fmt(p95)} |`);
    }
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
