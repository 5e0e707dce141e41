import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { resumableUpload, type Song } from '@encore/common/library.contract';
import { limitMessage, parseLimitMessage } from '@encore/common/limit-messages';
import { account, bearer, completeUpload, fetchUrl, presign, upload } from '../library/library-test-kit.js';
import { createClip, settingsOf, taskIdOf } from '../clips/clips-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Fair shares (issue 29): each per-user limit, reached, answers its status, header and message;
 * counts hold for requests at once (several connections on PostgreSQL); admins are exempt from
 * the storage quota only. Jobs are not worked here (WORKER=off): renders and transcriptions stay
 * waiting, so what counts is exactly what was asked for.
 */
const KB = 1024;
/** 0.25 MB: two songs of 128 KB fill it exactly. */
const QUOTA_BYTES = 256 * KB;

/** A PCM WAV (16-bit mono, 44.1 kHz) of noise, `bytes` long in all. */
function wav(bytes: number): Buffer {
  const dataBytes = bytes - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(88_200, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, randomBytes(dataBytes)]);
}

const TUS = { 'tus-resumable': '1.0.0' };
const tusMetadata = (fileName: string) => `filename ${Buffer.from(fileName).toString('base64')},filetype ${Buffer.from('audio/wav').toString('base64')}`;

let dir: string;
let small: string;
let large: string;
let picture: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-fair-shares-'));
  small = path.join(dir, 'small.wav');
  large = path.join(dir, 'large.wav');
  picture = path.join(dir, 'red.png');
  await fs.writeFile(small, wav(128 * KB));
  await fs.writeFile(large, wav(200 * KB));
  await sharp({ create: { width: 320, height: 240, channels: 3, background: '#d01010' } })
    .png()
    .toFile(picture);
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function expectRefusal(response: LightMyRequestResponse | Response, status: number, message: string, body: unknown, retryAfter?: string): void {
  const code = 'statusCode' in response ? response.statusCode : response.status;
  const header = 'statusCode' in response ? response.headers['retry-after'] : (response.headers.get('retry-after') ?? undefined);
  expect(code).toBe(status);
  expect(body).toEqual({ message });
  expect(header).toBe(retryAfter);
}

describe.each(engines)('per-user limits on %s', (engine) => {
  let t: TestApp;
  let base: string;
  const tokens = {} as Record<'root' | 'alice' | 'bob' | 'carol' | 'dave', string>;
  const songIds: number[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, {
      WORKER: 'off',
      USER_STORAGE_MB: String(QUOTA_BYTES / 1024 / 1024),
      USER_MAX_RENDERS: '2',
      USER_MAX_TRANSCRIPTIONS: '2',
      USER_AI_PER_MINUTE: '3',
      // Five create-clips at once must meet the render limit, not the uploads in flight (4; slow-clients.test.ts).
      UPLOADS_PER_USER: '8',
      // An engine that is never called: nothing works the jobs here.
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_API_URL: 'http://127.0.0.1:9/v1',
    });
    base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api${resumableUpload.path}`;
    // The first account of an instance is its admin.
    for (const name of ['root', 'alice', 'bob', 'carol', 'dave'] as const) tokens[name] = await account(t, name);
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: bearer(tokens.root) });
    expect(profile.json<{ role: string }>().role).toBe('admin');
  }, 180_000);
  afterAll(async () => t?.close());

  const tusCreate = (token: string, size: number) =>
    fetch(base, { method: 'POST', headers: { ...TUS, ...bearer(token), 'upload-length': String(size), 'upload-metadata': tusMetadata('song.wav') } });
  const mySongs = async (token: string) => (await t.app.inject({ url: '/api/files?owner=true', headers: bearer(token) })).json<Song[]>();

  it('refuses a song that does not fit the storage quota (413 with the figures), before any byte when it can, and spares admins', async () => {
    const alice = tokens.alice;
    const first = await upload(t, alice, small, { contentType: 'audio/wav' });
    expect(first.complete.statusCode).toBe(201);

    // 200 KB more does not fit in the 128 KB left: refused when it becomes a song, and nothing is kept.
    const tooBig = await upload(t, alice, large, { contentType: 'audio/wav' });
    const noRoom = limitMessage('limitStorageNoRoom', { used: '128.0 KB', quota: '256.0 KB', size: '200.0 KB' });
    expectRefusal(tooBig.complete, 413, noRoom, tooBig.complete.json());
    expect(await mySongs(alice)).toHaveLength(1);
    expect((await fetchUrl(t, tooBig.key)).status).not.toBe(200);
    // The resumable upload says so when it begins, from its declared length.
    const tusRefused = await tusCreate(alice, 200 * KB);
    expectRefusal(tusRefused, 413, noRoom, await tusRefused.json());
    const tusAccepted = await tusCreate(alice, 128 * KB);
    expect(tusAccepted.status).toBe(201);

    // 128 KB more fits exactly; then the storage is full, and even asking for an upload link is refused.
    expect((await upload(t, alice, small, { contentType: 'audio/wav' })).complete.statusCode).toBe(201);
    const full = limitMessage('limitStorageFull', { used: '256.0 KB', quota: '256.0 KB' });
    const link = await t.app.inject({ url: '/api/upload/presigned-url?fileName=more.wav&contentType=audio/wav', headers: bearer(alice) });
    expectRefusal(link, 413, full, link.json());
    const tusFull = await tusCreate(alice, 1);
    expectRefusal(tusFull, 413, limitMessage('limitStorageNoRoom', { used: '256.0 KB', quota: '256.0 KB', size: '1 B' }), await tusFull.json());
    // A link asked for before the storage filled up still cannot add a song.
    const key = await presign(t, tokens.bob, 'late.wav', 'audio/wav');
    expect((await upload(t, tokens.bob, small, { contentType: 'audio/wav' })).complete.statusCode).toBe(201);
    expect((await upload(t, tokens.bob, small, { contentType: 'audio/wav' })).complete.statusCode).toBe(201);
    await fetchUrl(t, key.url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: await fs.readFile(small) });
    const late = await completeUpload(t, tokens.bob, { fileName: 'late.wav', s3key: key.key, fileType: 'audio/wav' });
    expectRefusal(late, 413, limitMessage('limitStorageNoRoom', { used: '256.0 KB', quota: '256.0 KB', size: '128.0 KB' }), late.json());

    // Deleting a song makes room again.
    const [gone] = await mySongs(alice);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${gone?.id}`, headers: bearer(alice) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/upload/presigned-url?fileName=more.wav', headers: bearer(alice) })).statusCode).toBe(200);

    // The admin has no quota: three songs of 128 KB (more than 256 KB) and a large one.
    for (const file of [small, small, small, large, small, small, small, small]) {
      const added = await upload(t, tokens.root, file, { contentType: 'audio/wav' });
      expect(added.complete.statusCode).toBe(201);
      songIds.push(added.song.id);
    }
    expect((await tusCreate(tokens.root, 5 * 1024 * KB)).status).toBe(201);
  });

  it('lets uploads completing at once add no more than the quota: four 100 KB songs into 256 KB make two songs, signed PUT and tus alike', async () => {
    const noRoom = limitMessage('limitStorageNoRoom', { used: '200.0 KB', quota: '256.0 KB', size: '100.0 KB' });
    const files = Array.from({ length: 4 }, () => wav(100 * KB));

    // Signed PUT + upload-complete: four links and PUTs (each fits the empty storage), then four completions at once.
    const erin = await account(t, 'erin');
    const keys = await Promise.all(files.map(() => presign(t, erin, 'race.wav', 'audio/wav')));
    for (const [index, key] of keys.entries()) {
      expect((await fetchUrl(t, key.url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: files[index] })).status).toBeLessThan(300);
    }
    const completed = await Promise.all(keys.map((key) => completeUpload(t, erin, { fileName: 'race.wav', s3key: key.key, fileType: 'audio/wav' })));
    expect(completed.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 413, 413]);
    for (const answer of completed.filter((a) => a.statusCode === 413)) expectRefusal(answer, 413, noRoom, answer.json());
    expect(await mySongs(erin)).toHaveLength(2);

    // tus: four uploads begun (each fits), then their last bytes at once.
    const frank = await account(t, 'frank');
    const urls = await Promise.all(
      files.map(async () => {
        const created = await tusCreate(frank, 100 * KB);
        expect(created.status).toBe(201);
        return new URL(created.headers.get('location') ?? '', base).toString();
      }),
    );
    const patched = await Promise.all(
      urls.map((url, index) =>
        fetch(url, {
          method: 'PATCH',
          headers: { ...TUS, ...bearer(frank), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: files[index],
        }),
      ),
    );
    const statuses = patched.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 413)).toHaveLength(2);
    for (const answer of patched.filter((a) => a.status === 413)) expectRefusal(answer, 413, noRoom, await answer.json());
    expect(await mySongs(frank)).toHaveLength(2);
  });

  it('lets a user have at most USER_MAX_RENDERS renders waiting or running (429, Retry-After), admins too, exactly so for requests at once', async () => {
    const songUrl = `/music/${songIds[0]}`;
    const create = (token: string) => createClip(t, token, { settings: settingsOf({}), songUrl }, [picture]);
    const message = limitMessage('limitRenders', { max: 2 });
    for (const name of ['alice', 'root'] as const) {
      expect((await create(tokens[name])).statusCode).toBe(202);
      expect((await create(tokens[name])).statusCode).toBe(202);
      const third = await create(tokens[name]);
      expectRefusal(third, 429, message, third.json(), '30');
      // The refused render left no clip behind.
      expect((await t.app.inject({ url: '/api/clips', headers: bearer(tokens[name]) })).json<{ clips: unknown[] }>().clips).toHaveLength(2);
    }

    // Five at once from one user: two are taken, three refused.
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => create(tokens.carol)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 202, 429, 429, 429]);
    for (const answer of answers.filter((a) => a.statusCode === 429)) expectRefusal(answer, 429, message, answer.json(), '30');
    expect((await t.app.inject({ url: '/api/clips', headers: bearer(tokens.carol) })).json<{ clips: unknown[] }>().clips).toHaveLength(2);

    // Cancelling one frees its place.
    const [, second] = answers.filter((a) => a.statusCode === 202);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/tasks/${taskIdOf(second as LightMyRequestResponse)}/cancel`, headers: bearer(tokens.carol) }))
        .statusCode,
    ).toBe(200);
    expect((await create(tokens.carol)).statusCode).toBe(202);
    expect((await create(tokens.carol)).statusCode).toBe(429);
  }, 180_000);

  it('lets a user have at most USER_MAX_TRANSCRIPTIONS transcriptions waiting or running; joining a running one is free', async () => {
    const start = (token: string, songId: number) =>
      t.app.inject({ method: 'POST', url: `/api/files/${songId}/lyrics/transcription`, headers: bearer(token), payload: {} });
    const message = limitMessage('limitTranscriptions', { max: 2 });
    const [s0, s1, s2, s3] = songIds as [number, number, number, number];
    const first = await start(tokens.alice, s0);
    expect(first.statusCode).toBe(202);
    expect((await start(tokens.alice, s1)).statusCode).toBe(202);
    const third = await start(tokens.alice, s2);
    expectRefusal(third, 429, message, third.json(), '30');
    // The waiting call of SPEC 7 is held to the same limit.
    const waiting = await t.app.inject({ method: 'POST', url: `/api/files/${s2}/transcribe`, headers: bearer(tokens.alice), payload: {} });
    expectRefusal(waiting, 429, message, waiting.json(), '30');
    // Bob joins Alice's transcription of the song: the same task, and no place of his is taken.
    const joined = await start(tokens.bob, s0);
    expect(joined.statusCode).toBe(202);
    expect(joined.json()).toEqual(first.json());
    expect((await start(tokens.bob, s2)).statusCode).toBe(202);
    expect((await start(tokens.bob, s3)).statusCode).toBe(202);
    // Admins are held to it too; four songs asked for at once by one user: two are taken.
    const atOnce = await Promise.all(songIds.slice(4, 8).map((id) => start(tokens.root, id)));
    expect(atOnce.map((answer) => answer.statusCode).sort()).toEqual([202, 202, 429, 429]);
    for (const answer of atOnce.filter((a) => a.statusCode === 429)) expectRefusal(answer, 429, message, answer.json(), '30');
  });

  it('lets a user make at most USER_AI_PER_MINUTE AI playlists a minute (429, Retry-After = the rest of the minute), exactly so for requests at once', async () => {
    // The count is per minute of the clock: the test's clock starts a second into the next minute, so no request straddles two.
    const minute = 60_000;
    vi.useFakeTimers({ toFake: ['Date'], now: (Math.floor(Date.now() / minute) + 1) * minute + 1_000, shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const generate = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/playlists/generate-playlist-by-prompt',
        headers: bearer(token),
        payload: { prompt: 'calm piano for reading' },
      });
    for (let n = 0; n < 2; n++) expect((await generate(tokens.dave)).statusCode).not.toBe(429);
    // "More like this" draws on the same budget.
    expect((await t.app.inject({ method: 'POST', url: `/api/songs/${songIds[0]}/more-like-this`, headers: bearer(tokens.dave) })).statusCode).not.toBe(429);
    const refused = await generate(tokens.dave);
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({ message: limitMessage('limitAiPerMinute', { max: 3, seconds }) });
    expect(parseLimitMessage(refused.json<{ message: string }>().message)).toEqual({
      key: 'limitAiPerMinute',
      figures: { max: '3', seconds: String(seconds) },
    });

    // Admins too; five at once: three pass, two are refused.
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => generate(tokens.root)));
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(2);
    expect(answers.filter((answer) => answer.statusCode !== 429)).toHaveLength(3);
  });
});
