import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LISTENBRAINZ_MESSAGES, type CountedPlay, type ListenBrainzStatus } from '@encore/common/listening.contract';
import { listenBrainzLinks } from '../../src/features/listening/listening.schema.js';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, TAGGED, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { ListenBrainzStandIn } from './listenbrainz-stand-in.js';

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/** Polls until `check` passes (the submit job runs in the background); fails with its last error after 30 s. */
const eventually = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

describe.each(engines)('scrobbling to ListenBrainz (%s)', (engine) => {
  const standIn = new ListenBrainzStandIn();
  let t: TestApp;
  let ada: string;
  let bob: string;
  let songs: { tagged: number; plain: number; flac: number; opus: number };

  beforeAll(async () => {
    await standIn.start();
    standIn.tokens.set('ada-token-1', 'ada_on_lb');
    standIn.tokens.set('bob-token-1', 'bob_on_lb');
    t = await startTestApp(engine, { LISTENBRAINZ_URL: `${standIn.url}/`, LISTENBRAINZ_RETRY_SECONDS: '1' });
    ada = await account(t, 'ada');
    bob = await account(t, 'bob');
    songs = {
      tagged: (await upload(t, ada, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song.id,
      plain: (await upload(t, ada, fixtures.plainMp3, { fileName: 'plain.mp3' })).song.id,
      flac: (await upload(t, ada, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song.id,
      opus: (await upload(t, ada, fixtures.opus, { fileName: 'opus.ogg', contentType: 'audio/ogg' })).song.id,
    };
  });
  afterAll(async () => {
    await t?.close();
    await standIn.close();
  });

  const status = async (token: string) => {
    const response = await t.app.inject({ url: '/api/profile/listenbrainz', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return response.json<ListenBrainzStatus>();
  };
  const link = (token: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/profile/listenbrainz', headers: bearer(token), payload: payload as object });
  const play = async (token: string, id: number) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/files/${id}/plays`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return response.json<CountedPlay>();
  };
  const jobStates = async () => {
    const { rows } = await t.app.encore.platform.database.executor.executeSql(
      `SELECT state, retry_count FROM pgboss.job WHERE name = 'listening.submit-listen' ORDER BY created_on`,
    );
    return rows as { state: string; retry_count: number }[];
  };

  it('starts unlinked, refuses tokens ListenBrainz does not accept and bad bodies, and links a valid token', async () => {
    expect(await status(ada)).toEqual({ linked: false, userName: null, lastSubmittedAt: null, lastError: null, lastErrorAt: null });
    const refused = await link(ada, { token: 'not-a-token' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: LISTENBRAINZ_MESSAGES.tokenRefused });
    for (const bad of [{}, { token: '' }, { token: '   ' }, { token: 42 }, { token: 'x'.repeat(201) }, { token: 'a\u0000b' }, []]) {
      expect((await link(ada, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await status(ada)).linked).toBe(false);
    expect((await t.app.inject({ url: '/api/profile/listenbrainz' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/profile/listenbrainz', payload: { token: 'ada-token-1' } })).statusCode).toBe(401);

    const linked = await link(ada, { token: ' ada-token-1 ' });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ linked: true, userName: 'ada_on_lb', lastSubmittedAt: null, lastError: null });
    expect(await status(ada)).toMatchObject({ linked: true, userName: 'ada_on_lb' });
    // Kept encrypted: the row does not hold the token.
    const rows = await t.app.encore.platform.database.db.select().from(listenBrainzLinks);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenEncrypted).not.toContain('ada-token-1');
    expect(JSON.stringify(await status(ada))).not.toContain('ada-token-1');
  });

  it("submits a counted play as a listen with the user's token, the song's tags and when it started", async () => {
    const before = Math.floor(Date.now() / 1000);
    expect((await play(ada, songs.tagged)).counted).toBe(true);
    await eventually(() => expect(standIn.listens).toHaveLength(1));
    const listen = standIn.listens[0]!;
    expect(listen.token).toBe('ada-token-1');
    expect(listen.trackMetadata).toMatchObject({ artist_name: TAGGED.artist, track_name: TAGGED.title, release_name: TAGGED.album });
    expect(listen.trackMetadata.additional_info).toMatchObject({ submission_client: 'Encore', tracknumber: TAGGED.track });
    // Counted after half the song: it started that long before the count.
    expect(listen.listenedAt).toBeLessThanOrEqual(before + 1);
    expect(listen.listenedAt).toBeGreaterThan(before - 60);
    await eventually(async () => expect((await status(ada)).lastSubmittedAt).not.toBeNull());
    // The same play posted twice is one listen.
    expect((await play(ada, songs.tagged)).counted).toBe(false);
  });

  it('sends nothing for users who did not link ListenBrainz, nor for songs without an artist', async () => {
    const attempts = standIn.attempts.length;
    expect((await play(bob, songs.flac)).counted).toBe(true);
    expect((await play(ada, songs.plain)).counted).toBe(true); // no artist tag: ListenBrainz needs one
    await eventually(async () => expect((await jobStates()).every((job) => job.state === 'completed')).toBe(true));
    expect(standIn.attempts.length).toBe(attempts);
  });

  it('tries again when ListenBrainz is rate limiting or failing, and the listen arrives once', async () => {
    standIn.script.push({ status: 500 }, { status: 429, resetInSeconds: 1 });
    const attempts = standIn.attempts.length;
    expect((await play(ada, songs.flac)).counted).toBe(true);
    await eventually(() => expect(standIn.listens).toHaveLength(2));
    expect(standIn.attempts.length - attempts).toBe(3);
    expect(standIn.listens[1]!.trackMetadata.track_name).toEqual(expect.any(String));
    // The success clears the failure the retries noted.
    await eventually(async () => expect(await status(ada)).toMatchObject({ lastError: null, lastErrorAt: null }));
    await eventually(async () => expect((await jobStates()).every((job) => job.state === 'completed')).toBe(true));
  });

  it('gives up at once when ListenBrainz refuses the token, and says so on the profile', async () => {
    standIn.tokens.delete('ada-token-1'); // revoked on ListenBrainz
    const attempts = standIn.attempts.length;
    expect((await play(ada, songs.opus)).counted).toBe(true);
    await eventually(async () => expect((await jobStates()).some((job) => job.state === 'failed')).toBe(true));
    expect(standIn.attempts.length - attempts).toBe(1);
    const failed = (await jobStates()).find((job) => job.state === 'failed')!;
    expect(failed.retry_count).toBe(0);
    const after = await status(ada);
    expect(after.lastError).toMatch(/401/);
    expect(after.lastErrorAt).not.toBeNull();
    expect(standIn.listens).toHaveLength(2);
  });

  it('keeps each link its own: linking again replaces the token, unlinking stops the listens', async () => {
    standIn.tokens.set('ada-token-2', 'ada_on_lb');
    expect((await link(ada, { token: 'ada-token-2' })).json()).toMatchObject({ linked: true, lastError: null });
    expect((await link(bob, { token: 'bob-token-1' })).json()).toMatchObject({ linked: true, userName: 'bob_on_lb' });
    expect((await play(bob, songs.tagged)).counted).toBe(true);
    await eventually(() => expect(standIn.listens.map((listen) => listen.token)).toContain('bob-token-1'));

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/profile/listenbrainz', headers: bearer(bob) });
    expect(removed.statusCode).toBe(204);
    expect((await status(bob)).linked).toBe(false);
    expect((await status(ada)).linked).toBe(true);
    const attempts = standIn.attempts.length;
    expect((await play(bob, songs.opus)).counted).toBe(true);
    await eventually(async () => expect((await jobStates()).filter((job) => job.state !== 'completed' && job.state !== 'failed')).toEqual([]));
    expect(standIn.attempts.length).toBe(attempts);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/profile/listenbrainz', headers: bearer(bob) })).statusCode).toBe(204);
  });

  it('answers 503 when ListenBrainz cannot be reached to check a token', async () => {
    const other = await startTestApp(engine, { LISTENBRAINZ_URL: 'http://127.0.0.1:9' });
    try {
      const token = await account(other, 'cleo');
      const response = await other.app.inject({ method: 'PUT', url: '/api/profile/listenbrainz', headers: bearer(token), payload: { token: 'whatever' } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: LISTENBRAINZ_MESSAGES.unreachable });
    } finally {
      await other.close();
    }
  });
});

describe('ListenBrainz turned off', () => {
  it('refuses to link with 503 and says it is off', async () => {
    const t = await startTestApp('pglite', { LISTENBRAINZ_URL: 'off' });
    try {
      const token = await account(t, 'dora');
      const response = await t.app.inject({ method: 'PUT', url: '/api/profile/listenbrainz', headers: bearer(token), payload: { token: 'whatever' } });
      expect(response.statusCode).toBe(503);
      expect(response.json<{ message: string }>().message).toMatch(/off/);
      expect((await t.app.inject({ url: '/api/profile/listenbrainz', headers: bearer(token) })).json()).toMatchObject({ linked: false });
    } finally {
      await t.close();
    }
  });
});
