import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { GeneratedPlaylist } from '@encore/common/discovery.contract';
import { KEEP_FRESH_NOT_AI, type Playlist } from '@encore/common/playlists.contract';
import { ANALYSER_VERSION, featureVector } from '../../src/features/discovery/analysis/analyse-signal.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { songAnalyses } from '../../src/features/discovery/discovery.schema.js';
import { discoveryModule } from '../../src/features/discovery/discovery.module.js';
import { freshPlaylistsJob, refreshPlaylistJob } from '../../src/features/discovery/discovery.jobs.js';
import { folderSongsPort } from '../../src/features/library/library.port.js';
import { songs } from '../../src/features/library/library.schema.js';
import { workerPoll } from '../../src/platform/jobs/jobs.js';
import { upload } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { synthSong } from './synth-audio.js';

/**
 * Issue 41: an AI playlist kept fresh is ranked again with its prompt when songs are added or
 * analysed, in a job a minute later (one per playlist however many songs came), keeping the
 * songs its owner removed out and the ones its owner added in.
 */
function features(index: number): SongFeatures {
  const energy = 0.3 + (index % 5) * 0.1;
  return {
    bpm: 90 + index * 3,
    bpmConfidence: 0.9,
    key: 'C',
    mode: index % 2 === 0 ? 'major' : 'minor',
    keyStrength: 0.8,
    loudnessLufs: -16 + (index % 4),
    loudnessRange: 5,
    energy,
    energyLevel: energy >= 0.5 ? 'medium' : 'low',
    danceability: 0.5,
    spectralCentroidHz: 1500,
    brightness: 0.4 + (index % 3) * 0.1,
    onsetRate: 3,
    dynamicComplexity: 3,
    acousticness: 0.5,
    vocalPresence: 0.6,
  };
}

interface SongsOf {
  songs: Playlist['songs'];
}

describe.each(engines)('AI playlists kept fresh on %s', (engine) => {
  let t: TestApp;
  let ada = '';
  let bob = '';
  let ownerId = 0;
  let serial = 0;
  const idlePoll = workerPoll.idleSeconds;

  const signIn = async (userName: string) => {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'password 123' } });
    return (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: 'password 123' } })).json<{ token: string }>().token;
  };
  const call = async <T>(token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json<T & { message?: string }>() };
  };
  /** Songs in the database with their analysis, as an ingest and its analysis would leave them. */
  const addSongs = async (genre: string, count: number): Promise<number[]> => {
    const db = t.app.encore.platform.database.db;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      serial += 1;
      const title = `${genre} ${serial}`;
      const [row] = await db
        .insert(songs)
        .values({
          ownerId,
          displayName: title,
          fileName: `${title}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${ownerId}/fresh-${serial}/song.mp3`,
          size: 1000,
          durationSeconds: 200,
          title,
          artist: `Artist ${serial}`,
          genre,
          year: 2000 + serial,
        })
        .returning();
      const f = features(serial);
      await db.insert(songAnalyses).values({ songId: row!.id, status: 'analysed', features: f, vector: featureVector(f), analyserVersion: ANALYSER_VERSION });
      ids.push(row!.id);
    }
    return ids;
  };
  const songIds = async (token: string, playlistId: number) =>
    (await call<SongsOf>(token, 'GET', `/api/playlists/${playlistId}`)).body.songs.map((song) => song.id);
  const sql = async (text: string, values: unknown[] = []) => (await t.app.encore.platform.database.executor.executeSql(text, values)).rows;
  const jobStates = async (name: string) =>
    (await sql(`select state, singleton_key as key from pgboss.job where name = $1 order by created_on`, [name])) as { state: string; key: string | null }[];

  beforeAll(async () => {
    // The jobs made due below are picked up at the next poll, which the test then need not wait 15 s for.
    workerPoll.idleSeconds = 1;
    t = await startTestApp(engine);
    ada = await signIn('ada');
    bob = await signIn('bob');
    ownerId = (await t.app.encore.platform.database.db.select().from(users).where(eq(users.userName, 'ada')))[0]!.id;
    await addSongs('Jazz', 5);
    await addSongs('Rock', 5);
  });
  afterAll(async () => {
    workerPoll.idleSeconds = idlePoll;
    await t?.close();
  });

  it('re-ranks only fresh playlists, once however many songs came, keeping removals out and additions in', async () => {
    const generate = async () => {
      const { status, body } = await call<GeneratedPlaylist>(ada, 'POST', '/api/playlists/generate-playlist-by-prompt', { prompt: 'jazz songs' });
      expect(status, body.message).toBe(201);
      return body;
    };
    const fresh = await generate();
    const still = await generate();
    expect(fresh.songs).toHaveLength(5);
    const jazz = fresh.songs.map((song) => song.id);

    // The switch: off at first, the owner's only, and only on a playlist made from a prompt.
    expect((await call<Playlist>(ada, 'GET', `/api/playlists/${fresh.id}`)).body.keepFresh).toBe(false);
    expect((await call<Playlist>(bob, 'PATCH', `/api/playlists/${fresh.id}`, { keepFresh: true })).status).toBe(404);
    const own = await call<Playlist>(ada, 'POST', '/api/playlists', { name: 'Mine' });
    expect(own.body.keepFresh).toBeNull();
    const refused = await call<Playlist>(ada, 'PATCH', `/api/playlists/${own.body.id}`, { keepFresh: true });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(KEEP_FRESH_NOT_AI);
    expect((await call<Playlist>(ada, 'PATCH', `/api/playlists/${fresh.id}`, { keepFresh: 'yes' })).status).toBe(400);
    const switched = await call<Playlist>(ada, 'PATCH', `/api/playlists/${fresh.id}`, { keepFresh: true });
    expect(switched.status).toBe(200);
    expect(switched.body.keepFresh).toBe(true);
    expect((await call<Playlist>(ada, 'GET', `/api/playlists/${still.id}`)).body.keepFresh).toBe(false);

    // By hand: one jazz song out, one rock song in.
    const removed = jazz[1]!;
    expect((await call<Playlist>(ada, 'DELETE', `/api/playlists/${fresh.id}/songs/${removed}`)).status).toBe(200);
    const [handRock] = await t.app.encore.platform.database.db.select({ id: songs.id }).from(songs).where(eq(songs.genre, 'Rock')).limit(1);
    expect((await call<Playlist>(ada, 'POST', `/api/playlists/${fresh.id}/songs`, { songId: handRock!.id })).status).toBe(200);
    const stillBefore = await songIds(ada, still.id);

    // New jazz songs come in several announcements (a folder's scan, uploads one by one): one re-rank is queued.
    const folderSongs = t.app.encore.modules.port(folderSongsPort);
    const added = await addSongs('Jazz', 4);
    await folderSongs.announce(added.slice(0, 2).map((songId) => ({ songId, tags: undefined })));
    for (const songId of added.slice(2)) await folderSongs.announce([{ songId, tags: undefined }]);
    const queued = await jobStates(freshPlaylistsJob.name);
    expect(queued).toEqual([{ state: 'created', key: 'fresh-playlists' }]);
    expect(await songIds(ada, fresh.id)).not.toEqual(expect.arrayContaining(added.slice(0, 1)));

    // A minute later it runs (made due now rather than waited for).
    await sql(`update pgboss.job set start_after = now() where name = $1`, [freshPlaylistsJob.name]);
    // One re-rank, of the fresh playlist only (within the test's own time limit, however long a busy machine takes).
    const minuteReranks = async () => (await jobStates(refreshPlaylistJob.name)).filter((job) => job.key?.startsWith('playlist:'));
    await expect.poll(minuteReranks, { timeout: 55_000, interval: 100 }).toEqual([{ state: 'completed', key: `playlist:${fresh.id}` }]);

    const after = await songIds(ada, fresh.id);
    expect(after).toEqual(expect.arrayContaining([...added, ...jazz.filter((id) => id !== removed), handRock!.id]));
    expect(after).not.toContain(removed);
    expect(after).toHaveLength(4 + 4 + 1);
    // The song added by hand stays after the ranking's songs.
    expect(after.at(-1)).toBe(handRock!.id);
    // The playlist not kept fresh is as it was.
    expect(await songIds(ada, still.id)).toEqual(stillBefore);
  });

  it('ranks a playlist again at once when its owner switches Keep fresh on, with the songs that came while it was off', async () => {
    const { status, body } = await call<GeneratedPlaylist>(ada, 'POST', '/api/playlists/generate-playlist-by-prompt', { prompt: 'rock songs' });
    expect(status, body.message).toBe(201);
    const before = body.songs.map((song) => song.id);
    // Songs come while it is off: nothing changes it (no song is announced, no minute's job).
    const added = await addSongs('Rock', 2);
    expect(await songIds(ada, body.id)).toEqual(before);
    const switchedOn = async () => (await jobStates(refreshPlaylistJob.name)).filter((job) => job.key === `switched-on:${body.id}`);
    expect(await switchedOn()).toEqual([]);

    expect((await call<Playlist>(ada, 'PATCH', `/api/playlists/${body.id}`, { keepFresh: true })).status).toBe(200);
    // Saying "on" again while on queues nothing more.
    expect((await call<Playlist>(ada, 'PATCH', `/api/playlists/${body.id}`, { keepFresh: true })).status).toBe(200);
    await expect.poll(switchedOn, { timeout: 55_000, interval: 100 }).toEqual([{ state: 'completed', key: `switched-on:${body.id}` }]);
    expect(await songIds(ada, body.id)).toEqual(expect.arrayContaining([...before, ...added]));
    // The minute's debounced re-rank of this playlist is untouched by it.
    expect((await jobStates(refreshPlaylistJob.name)).filter((job) => job.key === `playlist:${body.id}`)).toEqual([]);
  });

  it('keeps the size the prompt asked for when ranked again', async () => {
    const { status, body } = await call<GeneratedPlaylist>(ada, 'POST', '/api/playlists/generate-playlist-by-prompt', { prompt: '3 jazz songs' });
    expect(status, body.message).toBe(201);
    expect(body.songs).toHaveLength(3);
    expect((await call<Playlist>(ada, 'PATCH', `/api/playlists/${body.id}`, { keepFresh: true })).status).toBe(200);
    await addSongs('Jazz', 3);
    const { discovery } = t.app.encore.modules.internals(discoveryModule);
    expect(await discovery.refresh(body.id)).toBe('refreshed');
    expect(await songIds(ada, body.id)).toHaveLength(3);
    // Switched off: a re-rank leaves it alone.
    expect((await call<Playlist>(ada, 'PATCH', `/api/playlists/${body.id}`, { keepFresh: false })).body.keepFresh).toBe(false);
    expect(await discovery.refresh(body.id)).toBe('skipped');
  });

  it('queues the re-rank when a song is uploaded and when a song is analysed', async () => {
    const pending = async () => (await jobStates(freshPlaylistsJob.name)).filter((job) => job.state === 'created');
    // The minute's earlier job would swallow these sends: only theirs is looked at.
    await sql(`delete from pgboss.job where name = $1`, [freshPlaylistsJob.name]);
    const dir = await mkdtemp(path.join(tmpdir(), 'encore-fresh-'));
    try {
      await synthSong(path.join(dir, 'beat.mp3'), { bpm: 120, rootHz: 220, mode: 'major', gainDb: -6, seconds: 6 });
      const uploaded = await upload(t, ada, path.join(dir, 'beat.mp3'));
      expect(uploaded.complete.statusCode).toBe(201);
      expect(await pending()).toHaveLength(1);
      await sql(`delete from pgboss.job where name = $1`, [freshPlaylistsJob.name]);
      const { analysis } = t.app.encore.modules.internals(discoveryModule);
      expect(await analysis.analyseSong(uploaded.song.id)).toBe('analysed');
      expect(await pending()).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
