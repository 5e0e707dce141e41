/**
 * GET /api/playlists/:id on a 1,000-song playlist: median and p95 over repeated requests, on
 * PGlite and (when TEST_DATABASE_URL is set) PostgreSQL. Prints figures; asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { users } from '../../server/src/features/auth/auth.schema.js';
import { songs } from '../../server/src/features/library/library.schema.js';
import { playlistSongs, playlists } from '../../server/src/features/playlists/playlists.schema.js';

const SONGS = 1000;
const WARMUP = 10;
const RUNS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function run(engine: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'encore-bench-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (engine === 'postgres') {
    const admin = process.env['TEST_DATABASE_URL'] ?? '';
    const name = `encore_bench_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER: 'off', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }));
  try {
    await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName: 'bench', email: 'bench@example.com', password: 'bench password' } });
    const { token } = (await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'bench', password: 'bench password' } })).json<{
      token: string;
    }>();
    const db = app.encore.platform.database.db;
    const [user] = await db.select().from(users).where(eq(users.userName, 'bench'));
    const ownerId = user?.id ?? 0;
    const rows = Array.from({ length: SONGS }, (_, i) => ({
      ownerId,
      displayName: `Artist ${i % 37} - Song ${i}`,
      fileName: `song-${i}.mp3`,
      fileType: 'audio/mpeg',
      storageKey: `uploads/${ownerId}/bench-${i}/song.mp3`,
      size: 4_000_000 + i,
      durationSeconds: 180 + (i % 120),
      artist: `Artist ${i % 37}`,
      title: `Song ${i}`,
      album: `Album ${i % 50}`,
    }));
    const inserted = await db.insert(songs).values(rows).returning({ id: songs.id });
    const [list] = await db.insert(playlists).values({ ownerId, name: 'Big one' }).returning();
    const playlistId = list?.id ?? 0;
    await db.insert(playlistSongs).values(inserted.map((song, index) => ({ playlistId, songId: song.id, position: index + 1 })));

    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < WARMUP; i += 1) await app.inject({ url: `/api/playlists/${playlistId}`, headers });
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const start = process.hrtime.bigint();
      const response = await app.inject({ url: `/api/playlists/${playlistId}`, headers });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (response.statusCode !== 200) throw new Error(`unexpected ${response.statusCode}`);
      bytes = response.body.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `GET /api/playlists/:id, ${SONGS} songs, ${engine}: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${RUNS} requests, ${(bytes / 1024).toFixed(0)} KiB each)`,
    );
  } finally {
    await app.close();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await run('pglite');
if (process.env['TEST_DATABASE_URL']) await run('postgres');
