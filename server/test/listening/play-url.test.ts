import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, bearer, fetchUrl, upload } from '../library/library-test-kit.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { makeAudio } from './loudness-reference.js';

let fixtures: AudioFixtures;
let dir: string;
let alac: string;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-play-url-'));
  alac = path.join(dir, 'apple.m4a');
  await makeAudio([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=6:sample_rate=44100',
    '-ac',
    '2',
    '-c:a',
    'alac',
    '-metadata',
    'title=Apple Lossless',
    alac,
  ]);
});
afterAll(async () => {
  await fixtures?.cleanup();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe.each(engines)('GET /api/files/{id}/play?format=browser (%s)', (engine) => {
  let t: TestApp;
  let token: string;
  let mp3: number;
  let lossless: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await account(t, 'ada');
    mp3 = (await upload(t, token, fixtures.taggedMp3, { fileName: 'tagged.mp3' })).song.id;
    lossless = (await upload(t, token, alac, { fileName: 'apple.m4a', contentType: 'audio/mp4' })).song.id;
  });
  afterAll(async () => t?.close());

  const playUrl = async (id: number | string, query = '?format=browser') => {
    const response = await t.app.inject({ url: `/api/files/${id}/play${query}`, headers: bearer(token) });
    return { status: response.statusCode, body: response.json<{ url?: string; message?: string }>() };
  };

  it('answers the original file when browsers play it, the same as without format', async () => {
    const browser = await playUrl(mp3);
    expect(browser.status).toBe(200);
    const plain = await playUrl(mp3, '');
    expect(new URL(browser.body.url!, 'http://x').pathname).toBe(new URL(plain.body.url!, 'http://x').pathname);
    const head = await fetchUrl(t, browser.body.url!, { headers: { range: 'bytes=0-2' } });
    expect(head.status).toBe(206);
    expect(head.body.subarray(0, 3).toString('latin1')).toBe('ID3');
  });

  it('answers an AAC copy of an Apple Lossless song, made once, that seeks with Range', async () => {
    const first = await playUrl(lossless);
    expect(first.status).toBe(200);
    const head = await fetchUrl(t, first.body.url!, { headers: { range: 'bytes=0-15' } });
    expect(head.status).toBe(206);
    expect(head.headers['content-type']).toBe('audio/mp4');
    expect(head.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const size = Number(/\/(\d+)$/.exec(String(head.headers['content-range']))?.[1]);
    expect(size).toBeGreaterThan(1000);
    // A seek far into the copy: a range from its middle.
    const middle = await fetchUrl(t, first.body.url!, { headers: { range: `bytes=${Math.floor(size / 2)}-` } });
    expect(middle.status).toBe(206);
    expect(middle.body.length).toBe(size - Math.floor(size / 2));
    const again = await playUrl(lossless);
    expect(new URL(again.body.url!, 'http://x').pathname).toBe(new URL(first.body.url!, 'http://x').pathname);
    // The download is still the original.
    const download = await t.app.inject({ url: `/api/files/${lossless}/download`, headers: bearer(token) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(await fs.readFile(alac))).toBe(true);
  });

  it('refuses another format, bad and unknown ids, and callers without a session', async () => {
    for (const query of ['?format=flac', '?format=', '?format=BROWSER']) {
      const answer = await playUrl(mp3, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message).toEqual(expect.any(String));
    }
    expect((await playUrl(999_999)).status).toBe(404);
    expect((await playUrl('abc')).status).toBe(400);
    expect((await t.app.inject({ url: `/api/files/${mp3}/play?format=browser` })).statusCode).toBe(401);
  });
});
