/**
 * Issue 39, "Authentication at the cost of a lookup" and "Small calls": the small /rest calls a
 * phone app makes all the time, over loopback HTTP (node:http, a keep-alive connection) on 2,000
 * songs (`REST_SONGS`): `ping` without credentials (an error answer: the floor of a call), `ping`
 * with each kind of credential (API key; app password as `p=` and as `enc:`; token and salt with
 * one salt, and with a new salt each call as most apps send it), then `getSong`, `getAlbum`, a
 * cached `getCoverArt` (a 300 px rendition already stored) and `stream` with a Range header.
 * Rounds interleave the cases, so a slow moment of the machine falls on all alike. For each: CPU
 * ms per call (this whole process: the client's share is the same in every case, so the
 * difference to the floor is the server's), and p50 / p95 of the wall time. PGlite, and
 * PostgreSQL with TEST_DATABASE_URL. Asserts nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { LibraryRepository } from '../server/src/features/library/library.repository.js';
import { loadSharp } from '../server/src/platform/media/sharp.loader.js';
import { songs } from '../server/src/features/library/library.schema.js';
import { benchEngines, fmt, startBenchApp, summarize, type Engine } from './library/bench-app.js';
import { songRow } from './library/scale-library.js';

const SONGS = Number(process.env['REST_SONGS'] ?? 2_000);
const ROUNDS = Number(process.env['REST_ROUNDS'] ?? 8);
const PER_ROUND = Number(process.env['REST_PER_ROUND'] ?? 100);
const AUDIO_BYTES = 4 * 1024 * 1024;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

interface Case {
  label: string;
  path: () => string;
  headers?: Record<string, string>;
  /** What the answer must be (a check that the case measures what it says). */
  expect: (status: number, body: Buffer) => boolean;
}

async function run(engine: Engine): Promise<void> {
  // Without the sonic analysis in the background (its own item of issue 39, its own bench): these are the calls alone.
  const bench = await startBenchApp(engine, { MAX_UPLOAD_MB: '20', ANALYSIS_BACKFILL: 'false', ANALYSIS_ON_INGEST: 'false' });
  try {
    const db = bench.app.encore.platform.database.db;
    const storage = bench.app.encore.platform.storage;
    await new LibraryRepository(db).insertMany(Array.from({ length: SONGS }, (_, i) => songRow(bench.userId, i)));
    // Song 0 (songRow gives even songs a cover key) gets real bytes and a real cover.
    const [first] = await db
      .select({ id: songs.id, storageKey: songs.storageKey, coverKey: songs.coverKey })
      .from(songs)
      .where(eq(songs.title, songRow(0, 0).title ?? ''));
    if (!first?.coverKey) throw new Error('no song with a cover');
    const audio = Buffer.alloc(AUDIO_BYTES);
    for (let i = 0; i < AUDIO_BYTES; i += 1) audio[i] = (i * 31) & 0xff;
    await storage.put(first.storageKey, audio, { contentType: 'audio/mpeg' });
    await db.update(songs).set({ size: AUDIO_BYTES }).where(eq(songs.id, first.id));
    const sharp = await loadSharp();
    const picture = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#2080c0' } })
      .jpeg()
      .toBuffer();
    await storage.put(first.coverKey, picture, { contentType: 'image/jpeg' });

    const authed = (path: string, body: object) =>
      bench.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${bench.token}` }, payload: body });
    const apiKey = (await authed('/api/auth/api-keys', { name: 'bench key' })).json<{ key: string }>().key;
    const appPassword = (await authed('/api/auth/app-passwords', { name: 'bench phone' })).json<{ password: string }>().password;
    const origin = await bench.app.listen({ host: '127.0.0.1', port: 0 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
        const request = http.get(`${origin}${path}`, { agent, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        });
        request.on('error', reject);
      });

    const common = 'v=1.16.1&c=bench&f=json';
    const withKey = (call: string) => `/rest/${call}${call.includes('?') ? '&' : '?'}${common}&apiKey=${encodeURIComponent(apiKey)}`;
    const ok = (_status: number, body: Buffer) => body.includes('"status":"ok"');
    const song = JSON.parse((await get(withKey(`getSong?id=${first.id}`))).body.toString('utf8')) as {
      'subsonic-response': { song: { id: string; albumId: string } };
    };
    const { id: songId, albumId } = song['subsonic-response'].song;
    // The rendition is made once, before measuring: what is measured is the stored one.
    const warmCover = await get(withKey(`getCoverArt?id=${songId}&size=300`));
    if (warmCover.status !== 200) throw new Error(`getCoverArt: ${warmCover.status}`);

    const fixedSalt = 'b3nchs4lt';
    const cases: Case[] = [
      { label: 'ping, no credentials (error 10)', path: () => `/rest/ping?${common}`, expect: (_s, body) => body.includes('"code":10') },
      { label: 'ping, apiKey', path: () => withKey('ping'), expect: ok },
      { label: 'ping, u + p (app password)', path: () => `/rest/ping?${common}&u=bench&p=${appPassword}`, expect: ok },
      { label: 'ping, u + p=enc:', path: () => `/rest/ping?${common}&u=bench&p=enc:${Buffer.from(appPassword).toString('hex')}`, expect: ok },
      { label: 'ping, u + t + s (one salt)', path: () => `/rest/ping?${common}&u=bench&t=${md5(appPassword + fixedSalt)}&s=${fixedSalt}`, expect: ok },
      {
        label: 'ping, u + t + s (new salt each call)',
        path: () => {
          const salt = randomBytes(6).toString('hex');
          return `/rest/ping?${common}&u=bench&t=${md5(appPassword + salt)}&s=${salt}`;
        },
        expect: ok,
      },
      { label: 'getSong (apiKey)', path: () => withKey(`getSong?id=${songId}`), expect: ok },
      { label: 'getAlbum (apiKey)', path: () => withKey(`getAlbum?id=${albumId}`), expect: ok },
      {
        label: 'getCoverArt size=300, stored (apiKey)',
        path: () => withKey(`getCoverArt?id=${songId}&size=300`),
        expect: (status, body) => status === 200 && body.length > 1000,
      },
      {
        label: 'getCoverArt, If-None-Match (304)',
        path: () => withKey(`getCoverArt?id=${songId}&size=300`),
        headers: { 'if-none-match': '' },
        expect: (status) => status === 304,
      },
      {
        label: 'stream, Range bytes=1048576-1114111 (apiKey)',
        path: () => withKey(`stream?id=${songId}`),
        headers: { range: 'bytes=1048576-1114111' },
        expect: (status, body) => status === 206 && body.length === 65_536,
      },
    ];
    const etag = (await new Promise<string>((resolve, reject) => {
      http
        .get(`${origin}${withKey(`getCoverArt?id=${songId}&size=300`)}`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(String(response.headers['etag'] ?? '')));
        })
        .on('error', reject);
    })) as string;
    for (const entry of cases) if (entry.headers?.['if-none-match'] === '') entry.headers['if-none-match'] = etag;

    for (const entry of cases) {
      for (let i = 0; i < 20; i += 1) {
        const answer = await get(entry.path(), entry.headers);
        if (!entry.expect(answer.status, answer.body)) throw new Error(`${entry.label}: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
      }
    }
    const times = cases.map((): number[] => []);
    const cpu = cases.map(() => 0);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, entry] of cases.entries()) {
        const before = process.cpuUsage();
        for (let i = 0; i < PER_ROUND; i += 1) {
          const start = process.hrtime.bigint();
          await get(entry.path(), entry.headers);
          times[index]?.push(Number(process.hrtime.bigint() - start) / 1e6);
        }
        const used = process.cpuUsage(before);
        cpu[index] = (cpu[index] ?? 0) + (used.user + used.system) / 1000;
      }
    }
    agent.destroy();
    const calls = ROUNDS * PER_ROUND;
    const floor = (cpu[0] ?? 0) / calls;
    console.log(`\n${engine}: ${SONGS} songs, ${calls} calls per case over loopback HTTP (keep-alive), ${ROUNDS} interleaved rounds`);
    console.log('| call | CPU ms / call | CPU over the floor | p50 ms | p95 ms |');
    console.log('|---|---|---|---|---|');
    for (const [index, entry] of cases.entries()) {
      const perCall = (cpu[index] ?? 0) / calls;
      const { median, p95 } = summarize(times[index] ?? []);
      console.log(
        `| ${entry.label} | ${fmt(perCall, 2)} | ${index === 0 ? '—' : `${perCall - floor >= 0 ? '+' : ''}${fmt(perCall - floor, 2)}`} | ${fmt(median, 2)} | ${fmt(p95, 2)} |`,
      );
    }
  } finally {
    await bench.close();
  }
}

for (const engine of benchEngines) await run(engine);
