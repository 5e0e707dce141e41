import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayQueue } from '@encore/common/listening.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

describe.each(engines)('the play queue of the web API (%s)', (engine) => {
  let t: TestApp;
  let adaToken: string;
  let bobToken: string;
  let songIds: number[];

  beforeAll(async () => {
    t = await startTestApp(engine);
    adaToken = await account(t, 'ada');
    bobToken = await account(t, 'bob');
    songIds = [
      (await upload(t, adaToken, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song.id,
      (await upload(t, adaToken, fixtures.plainMp3, { fileName: 'plain.mp3' })).song.id,
      (await upload(t, bobToken, fixtures.flac, { fileName: 'lossless.flac', contentType: 'audio/flac' })).song.id,
    ];
  });
  afterAll(async () => t?.close());

  const getQueue = async (token: string) => {
    const response = await t.app.inject({ url: '/api/player/queue', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return response.json<PlayQueue>();
  };
  const putQueue = (token: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/player/queue', headers: bearer(token), payload: payload as object });

  it('answers an empty queue before any was saved, and a saved one as saved, in order with repeats', async () => {
    expect(await getQueue(adaToken)).toEqual({ songIds: [], current: null, positionSeconds: 0 });
    const [a, b, c] = songIds as [number, number, number];
    const body = { songIds: [c, a, b, a], current: b, positionSeconds: 42.5 };
    const saved = await putQueue(adaToken, body);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(body);
    expect(await getQueue(adaToken)).toEqual(body);
  });

  it('drops unknown songs, clears a current song that is not queued, and leaves out songs deleted since', async () => {
    const [a, b] = songIds as [number, number];
    const saved = await putQueue(adaToken, { songIds: [a, 999_999, b], current: 999_999, positionSeconds: 10 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ songIds: [a, b], current: null, positionSeconds: 0 });
    const extra = (await upload(t, adaToken, fixtures.opus, { fileName: 'gone.ogg', contentType: 'audio/ogg' })).song.id;
    await putQueue(adaToken, { songIds: [a, extra], current: extra, positionSeconds: 3 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${extra}`, headers: bearer(adaToken) })).statusCode).toBeLessThan(300);
    expect(await getQueue(adaToken)).toEqual({ songIds: [a], current: null, positionSeconds: 0 });
  });

  it("keeps each user's queue their own, and refuses callers without a session", async () => {
    const [a, b, c] = songIds as [number, number, number];
    await putQueue(adaToken, { songIds: [a, b], current: a, positionSeconds: 1 });
    await putQueue(bobToken, { songIds: [c], current: c, positionSeconds: 2 });
    expect(await getQueue(adaToken)).toEqual({ songIds: [a, b], current: a, positionSeconds: 1 });
    expect(await getQueue(bobToken)).toEqual({ songIds: [c], current: c, positionSeconds: 2 });
    expect((await t.app.inject({ url: '/api/player/queue' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/player/queue', payload: { songIds: [], current: null, positionSeconds: 0 } })).statusCode).toBe(401);
  });

  it('answers 400 to bad bodies and leaves the queue as it was', async () => {
    const [a] = songIds as [number];
    await putQueue(adaToken, { songIds: [a], current: a, positionSeconds: 5 });
    const bad: unknown[] = [
      {},
      { songIds: 'all', current: null, positionSeconds: 0 },
      { songIds: [0], current: null, positionSeconds: 0 },
      { songIds: [-1], current: null, positionSeconds: 0 },
      { songIds: [1.5], current: null, positionSeconds: 0 },
      { songIds: [2_147_483_648], current: null, positionSeconds: 0 },
      { songIds: [a], current: 'a', positionSeconds: 0 },
      { songIds: [a], current: a, positionSeconds: -1 },
      { songIds: [a], current: a, positionSeconds: 1e308 },
      { songIds: Array.from({ length: 5001 }, () => a), current: a, positionSeconds: 0 },
    ];
    for (const body of bad) {
      const response = await putQueue(adaToken, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof response.json<{ message?: unknown }>().message).toBe('string');
    }
    expect(await getQueue(adaToken)).toEqual({ songIds: [a], current: a, positionSeconds: 5 });
  });

  it('accepts a queue of 5000 songs', async () => {
    const [a, b] = songIds as [number, number];
    const long = Array.from({ length: 5000 }, (_value, index) => (index % 2 === 0 ? a : b));
    const saved = await putQueue(adaToken, { songIds: long, current: b, positionSeconds: 0 });
    expect(saved.statusCode).toBe(200);
    expect((await getQueue(adaToken)).songIds).toEqual(long);
  });

  it('ends concurrent saves with one of the bodies whole', async () => {
    const [a, b, c] = songIds as [number, number, number];
    const bodies = Array.from({ length: 12 }, (_value, index) => ({
      songIds: index % 2 === 0 ? [a, b, c].slice(0, 1 + (index % 3)) : [c, b, a].slice(0, 1 + (index % 3)),
      current: index % 2 === 0 ? a : c,
      positionSeconds: index,
    }));
    const answers = await Promise.all(bodies.map((body) => putQueue(adaToken, body)));
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    expect(bodies).toContainEqual(await getQueue(adaToken));
  });
});
