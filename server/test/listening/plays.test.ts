import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SongDetail } from '@encore/common/library.contract';
import type { CountedPlay, PlayHistory } from '@encore/common/listening.contract';
import { listeningPort } from '../../src/features/listening/listening.port.js';
import { songPlays } from '../../src/features/listening/listening.schema.js';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { makeAudio } from './loudness-reference.js';

let fixtures: AudioFixtures;
let dir: string;
/** A 60-second song: a second count within 30 s of the first is the same play. */
let minuteSong: string;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-plays-'));
  minuteSong = path.join(dir, 'minute.mp3');
  await makeAudio([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=60:sample_rate=22050',
    '-metadata',
    'title=Minute',
    '-metadata',
    'artist=Clock',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '32k',
    minuteSong,
  ]);
});
afterAll(async () => {
  await fixtures?.cleanup();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe.each(engines)('play counts and history (%s)', (engine) => {
  let t: TestApp;
  let ada: string;
  let bob: string;
  let minute: number;
  let tagged: number;
  let plain: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    ada = await account(t, 'ada');
    bob = await account(t, 'bob');
    minute = (await upload(t, ada, minuteSong, { fileName: 'minute.mp3' })).song.id;
    tagged = (await upload(t, ada, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song.id;
    // Bob's upload: the collection is shared, so Ada plays and counts it like her own.
    plain = (await upload(t, bob, fixtures.plainMp3, { fileName: 'plain.mp3' })).song.id;
  });
  afterAll(async () => t?.close());

  const play = (token: string, id: number | string, init: { payload?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/files/${id}/plays`,
      headers: { ...bearer(token), ...init.headers },
      ...(init.payload === undefined ? {} : { payload: init.payload }),
    });
  const counted = async (token: string, id: number) => {
    const response = await play(token, id);
    expect(response.statusCode).toBe(200);
    return response.json<CountedPlay>();
  };
  const detail = async (token: string, id: number) => (await t.app.inject({ url: `/api/files/${id}`, headers: bearer(token) })).json<SongDetail>();
  const history = async (token: string, query: string) => {
    const response = await t.app.inject({ url: `/api/player/history?${query}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PlayHistory>();
  };
  /** As if the user's last play of the song had been `seconds` earlier (no waiting in tests). */
  const backdate = async (userName: string, songId: number, seconds: number) => {
    const userId = await userIdOf(userName);
    await t.app.encore.platform.database.db
      .update(songPlays)
      .set({ lastPlayedAt: sql`${songPlays.lastPlayedAt} - make_interval(secs => ${seconds})` })
      .where(and(eq(songPlays.userId, userId), eq(songPlays.songId, songId)));
  };
  const userIdOf = async (userName: string): Promise<number> => {
    const { rows } = await t.app.encore.platform.database.executor.executeSql('select id from users where user_name = $1', [userName]);
    return Number((rows as { id: number }[])[0]!.id);
  };

  it('counts a play once: the same play posted again within half the song is not counted twice', async () => {
    const before = Date.now();
    const first = await counted(ada, minute);
    expect(first).toMatchObject({ counted: true, playCount: 1 });
    expect(new Date(first.lastPlayedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await counted(ada, minute)).toEqual({ ...first, counted: false });
    // 29 s later it is still the same play (a 60 s song counts after 30 s); 31 s later a new one.
    await backdate('ada', minute, 29);
    expect((await counted(ada, minute)).counted).toBe(false);
    await backdate('ada', minute, 2);
    expect(await counted(ada, minute)).toMatchObject({ counted: true, playCount: 2 });
  });

  it("shows the caller's count and last play on GET /api/files/{id}, nobody else's", async () => {
    const mine = await detail(ada, minute);
    expect(mine.playCount).toBe(2);
    expect(mine.lastPlayedAt).not.toBeNull();
    expect(await detail(bob, minute)).toMatchObject({ playCount: 0, lastPlayedAt: null });
    expect(await detail(ada, plain)).toMatchObject({ playCount: 0, lastPlayedAt: null });
  });

  it('counts concurrent posts of one play once', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => counted(bob, tagged)));
    expect(answers.filter((answer) => answer.counted)).toHaveLength(1);
    expect(answers.every((answer) => answer.playCount === 1)).toBe(true);
    expect((await detail(bob, tagged)).playCount).toBe(1);
  });

  it('counts 50 concurrent posts of one play once, a first play and a later one alike, however short the song', async () => {
    const carol = await account(t, 'carol');
    // A 1 s song: two plays of it half a second apart are two, so the posts' answers must not
    // depend on how long the database kept them waiting.
    const burst = () => Promise.all(Array.from({ length: 50 }, () => counted(carol, tagged)));
    const first = await burst();
    expect(first.filter((answer) => answer.counted)).toHaveLength(1);
    expect(first.every((answer) => answer.playCount === 1)).toBe(true);
    // A play long after: the row is there, 50 posts of the new play race for it.
    await backdate('carol', tagged, 3600);
    const later = await burst();
    expect(later.filter((answer) => answer.counted)).toHaveLength(1);
    expect(later.every((answer) => answer.playCount === 2)).toBe(true);
    expect((await detail(carol, tagged)).playCount).toBe(2);
  });

  it('refuses unknown songs, bad ids, bad bodies and callers without a session, counting nothing', async () => {
    expect((await play(ada, 999_999)).statusCode).toBe(404);
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999']) expect((await play(ada, id)).statusCode, id).toBe(400);
    const garbage = await play(ada, plain, { payload: '{"not json', headers: { 'content-type': 'application/json' } });
    expect(garbage.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/files/${plain}/plays` })).statusCode).toBe(401);
    expect((await play('not-a-token', plain)).statusCode).toBe(401);
    expect((await detail(ada, plain)).playCount).toBe(0);
  });

  it('lists recently played and most played songs of the caller, with counts', async () => {
    await counted(ada, plain);
    await backdate('ada', plain, 600);
    await counted(ada, tagged);
    const recent = await history(ada, 'kind=recent');
    expect(recent.kind).toBe('recent');
    expect(recent.songs.map((song) => song.id)).toEqual([tagged, minute, plain]);
    expect(recent.songs[0]).toMatchObject({ id: tagged, displayName: expect.any(String) as string, playCount: 1 });
    expect(recent.songs[0]).not.toHaveProperty('transcript');
    const most = await history(ada, 'kind=most');
    expect(most.songs.map((song) => [song.id, song.playCount])).toEqual([
      [minute, 2],
      [tagged, 1],
      [plain, 1],
    ]);
    expect((await history(ada, 'kind=most&limit=1')).songs.map((song) => song.id)).toEqual([minute]);
    // Bob's history is his own.
    expect((await history(bob, 'kind=recent')).songs.map((song) => song.id)).toEqual([tagged]);
    expect((await history(await account(t, 'cleo'), 'kind=most')).songs).toEqual([]);
  });

  it('answers 400 to a bad history query and 401 without a session', async () => {
    for (const query of ['', 'kind=oldest', 'kind=recent&limit=0', 'kind=recent&limit=101', 'kind=recent&limit=ten', 'kind=recent&limit=2.5']) {
      const response = await t.app.inject({ url: `/api/player/history?${query}`, headers: bearer(ada) });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message).toEqual(expect.any(String));
    }
    expect((await t.app.inject({ url: '/api/player/history?kind=recent' })).statusCode).toBe(401);
  });

  it("shares the counts with the Subsonic API's scrobble, under the same rule", async () => {
    const listening = t.app.encore.modules.port(listeningPort);
    const adaId = await userIdOf('ada');
    const before = (await detail(ada, plain)).playCount;
    await listening.scrobble(adaId, plain, { submission: true, at: new Date(), client: 'Tester' });
    // The web player's count of the same play a moment later adds nothing.
    expect((await counted(ada, plain)).counted).toBe(false);
    // A late scrobble of a play an hour ago is another play; last played stays the newest.
    const last = (await detail(ada, plain)).lastPlayedAt;
    await listening.scrobble(adaId, plain, { submission: true, at: new Date(Date.now() - 3600_000), client: 'Tester' });
    expect(await detail(ada, plain)).toMatchObject({ playCount: before + 2, lastPlayedAt: last });
    expect((await history(ada, 'kind=recent')).songs[0]?.id).toBe(plain);
  });

  it('leaves a deleted song out of the history', async () => {
    const gone = (await upload(t, ada, fixtures.opus, { fileName: 'gone.ogg', contentType: 'audio/ogg' })).song.id;
    await counted(ada, gone);
    expect((await history(ada, 'kind=recent')).songs[0]?.id).toBe(gone);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${gone}`, headers: bearer(ada) })).statusCode).toBeLessThan(300);
    expect((await history(ada, 'kind=recent')).songs.map((song) => song.id)).not.toContain(gone);
    expect((await play(ada, gone)).statusCode).toBe(404);
  });
});
