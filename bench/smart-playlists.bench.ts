/**
 * Issue 41: smart playlists on the scale bench's 50,000 songs (`SCALE_SONGS`), a tenth of them
 * played by the user, one in twenty liked, half analysed (BPM, energy, vocals...). For rules of
 * each kind (a tag, the viewer's likes, the analysis, nested groups with plays, a substring),
 * GET /api/smart-playlists/:id/songs?limit=500 (a 500-song page, the songs hydrated as the web
 * app gets them) and the count alone (what the list and the editor's live count ask), median and
 * p95 over `SCALE_RUNS` (40) requests; goal p95 <= 50 ms for the 500-song page. PGlite and (when
 * TEST_DATABASE_URL is set) PostgreSQL. Asserts nothing.
 */
import { LibraryRepository } from '../server/src/features/library/library.repository.js';
import { songAnalyses } from '../server/src/features/discovery/discovery.schema.js';
import { songLikes, songs } from '../server/src/features/library/library.schema.js';
import { songPlays } from '../server/src/features/listening/listening.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, type Engine } from './library/bench-app.js';
import { songRow } from './library/scale-library.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 40);
const GOAL_MS = 50;
const DAY = 24 * 3600 * 1000;

const cases: [string, Record<string, unknown>][] = [
  ['genre is Jazz, newest first', { all: [{ is: { genre: 'Jazz' } }], sort: 'dateAdded', order: 'desc' }],
  ['liked, at random', { all: [{ is: { loved: true } }], sort: 'random' }],
  ['BPM 110-130 and energy > 0.5, most played first', { all: [{ inTheRange: { bpm: [110, 130] } }, { gt: { energy: 0.5 } }], sort: '-playCount' }],
  [
    'nested: (Rock of the 70s) or (played in 30 days, 3+ times)',
    {
      any: [
        { all: [{ is: { genre: 'Rock' } }, { inTheRange: { year: [1970, 1979] } }] },
        { all: [{ inTheLast: { lastPlayed: 30 } }, { gt: { playCount: 3 } }] },
      ],
      sort: 'artist',
    },
  ],
  ['title contains "river", by title', { all: [{ contains: { title: 'river' } }], sort: 'title' }],
  ['never played, instrumental, limit 500', { all: [{ is: { playCount: 0 } }, { is: { instrumental: true } }], sort: '-dateAdded', limit: 500 }],
];

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) await insert(rows.slice(start, start + 1000));
}

async function run(engine: Engine): Promise<void> {
  const bench = await startBenchApp(engine);
  try {
    const db = bench.app.encore.platform.database.db;
    const started = Date.now();
    await new LibraryRepository(db).insertMany(Array.from({ length: SONGS }, (_, i) => songRow(bench.userId, i)));
    const ids = (await db.select({ id: songs.id }).from(songs)).map((row) => row.id);
    const now = Date.now();
    await insertInChunks(
      ids.filter((_, i) => i % 20 === 0),
      (chunk) => db.insert(songLikes).values(chunk.map((songId) => ({ userId: bench.userId, songId }))),
    );
    await insertInChunks(
      ids.filter((_, i) => i % 10 === 3),
      (chunk) =>
        db
          .insert(songPlays)
          .values(chunk.map((songId, i) => ({ userId: bench.userId, songId, playCount: 1 + (i % 9), lastPlayedAt: new Date(now - (i % 400) * DAY) }))),
    );
    await insertInChunks(
      ids.filter((_, i) => i % 2 === 0),
      (chunk) =>
        db.insert(songAnalyses).values(
          chunk.map((songId, i) => ({
            songId,
            status: 'analysed' as const,
            features: {
              bpm: 70 + (i % 110),
              energy: (i % 100) / 100,
              brightness: (i % 37) / 37,
              danceability: 0.5,
              vocalPresence: (i % 7) / 7,
              key: 'A',
              mode: i % 2 ? 'major' : 'minor',
              loudnessLufs: -8 - (i % 12),
            },
            analyserVersion: 2,
          })),
        ),
    );
    await bench.app.encore.platform.upkeep?.runOnce();
    console.log(`\n${engine}: ${SONGS} songs (likes, plays, analyses) in ${Date.now() - started} ms`);
    await bench.restart();
    const headers = { authorization: `Bearer ${bench.token}` };
    console.log('| rules | matches | 500-song page median ms | p95 ms | p95 / goal | count only p95 ms |');
    console.log('|---|---|---|---|---|---|');
    for (const [label, rules] of cases) {
      const created = await bench.app.inject({ method: 'POST', url: '/api/smart-playlists', headers, payload: { name: label.slice(0, 100), rules } });
      if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
      const { id } = created.json<{ id: number }>();
      const measure = async (url: string) => {
        for (let i = 0; i < 5; i += 1) await bench.app.inject({ url, headers });
        const times: number[] = [];
        let body = '';
        for (let i = 0; i < RUNS; i += 1) {
          const start = process.hrtime.bigint();
          const response = await bench.app.inject({ url, headers });
          times.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
          body = response.body;
        }
        return { ...summarize(times), body };
      };
      const page = await measure(`/api/smart-playlists/${id}/songs?limit=500`);
      const count = await measure(`/api/smart-playlists/${id}`);
      const total = (JSON.parse(page.body) as { total: number }).total;
      console.log(`| ${label} | ${total} | ${fmt(page.median)} | ${fmt(page.p95)} | ${fmt(page.p95 / GOAL_MS, 2)} | ${fmt(count.p95)} |`);
    }
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
