/**
 * Issue 28: the song-browse port (the Subsonic API's ID3 model) on the 50,000-song library of
 * `scale-library.ts` (2,000 artists, 6,000 albums, one song in twenty liked). Prints the time of
 * the first call (the in-memory index built from the songs), then median and p95 of album-list
 * pages (`newest`, alphabetical, by year, starred; 50 each), of search3 with an empty query in
 * pages of 500 songs through the whole library (as Symfonium syncs), of a worded search, and
 * of adding 100 songs then listing again (the index extended, not rebuilt). Asserts nothing.
 */
import { LibraryRepository } from '../../server/src/features/library/library.repository.js';
import { songBrowsePort } from '../../server/src/features/library/library.port.js';
import { songLikes, songs } from '../../server/src/features/library/library.schema.js';
import { songRow } from './scale-library.js';
import { benchEngines, fmt, startBenchApp, summarize, timed, type Engine } from './bench-app.js';

const SONGS = Number(process.env['SCALE_SONGS'] ?? 50_000);
const RUNS = Number(process.env['SCALE_RUNS'] ?? 40);
const GOAL_MS = 50;
const none = { count: 0, offset: 0 };

async function run(engine: Engine): Promise<void> {
  const bench = await startBenchApp(engine);
  try {
    const db = bench.app.encore.platform.database.db;
    const repository = new LibraryRepository(db);
    await repository.insertMany(Array.from({ length: SONGS }, (_, i) => songRow(bench.userId, i)));
    const ids = await db.select({ id: songs.id }).from(songs);
    await db.insert(songLikes).values(ids.filter((_, i) => i % 20 === 0).map((row) => ({ userId: bench.userId, songId: row.id })));
    await bench.app.encore.platform.upkeep?.runOnce();
    await bench.restart();
    const browse = bench.app.encore.modules.port(songBrowsePort);
    const viewerId = bench.userId;
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const first = await timed(() => browse.albumList('newest', { count: 50, offset: 0 }, { viewerId }));
    global.gc?.();
    const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    console.log(
      `\n${engine}: ${SONGS} songs; first call (index built): ${fmt(first.ms)} ms; heap after it: +${fmt(heapMiB)} MiB${global.gc ? '' : ' (without --expose-gc: rough)'}`,
    );
    console.log('| call | items | median ms | p95 ms | p95 / goal (50 ms) |');
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
    const albums = Math.max(1, (await browse.search('', { artists: none, albums: { count: 1e9, offset: 0 }, songs: none }, viewerId)).albums.length);
    await measure(
      'albumList newest, 50 from offset (i × 50)',
      async (i) => (await browse.albumList('newest', { count: 50, offset: (i * 50) % albums }, { viewerId })).length,
    );
    await measure(
      'albumList alphabeticalByArtist, 50',
      async (i) => (await browse.albumList('alphabeticalByArtist', { count: 50, offset: (i * 50) % albums }, { viewerId })).length,
    );
    await measure(
      'albumList byYear 2020→1990, 50',
      async () => (await browse.albumList('byYear', { count: 50, offset: 0 }, { viewerId, fromYear: 2020, toYear: 1990 })).length,
    );
    await measure('albumList starred, 50', async () => (await browse.albumList('starred', { count: 50, offset: 0 }, { viewerId })).length);
    await measure('search3 "" songs page of 500 (whole library in turn)', async (i) => {
      const page = { count: 500, offset: (i * 500) % SONGS };
      return (await browse.search('', { artists: none, albums: none, songs: page }, viewerId)).songs.length;
    });
    await measure('search3 "midnight river" (20 artists, 20 albums, 20 songs)', async () => {
      const found = await browse.search(
        'midnight river',
        { artists: { count: 20, offset: 0 }, albums: { count: 20, offset: 0 }, songs: { count: 20, offset: 0 } },
        viewerId,
      );
      return found.artists.length + found.albums.length + found.songs.length;
    });
    await measure('getAlbum: album + its songs', async (i) => {
      const [album] = await browse.albumList('alphabeticalByName', { count: 1, offset: (i * 37) % albums }, { viewerId });
      return album ? (await browse.albumSongs(album.key, viewerId)).length : 0;
    });
    const appended = await timed(async () => {
      await new LibraryRepository(bench.app.encore.platform.database.db).insertMany(Array.from({ length: 100 }, (_, i) => songRow(bench.userId, SONGS + i)));
      return browse.albumList('newest', { count: 50, offset: 0 }, { viewerId });
    });
    console.log(`\n${engine}: 100 songs added, then albumList newest (index extended): ${fmt(appended.ms)} ms (insert included)`);
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
