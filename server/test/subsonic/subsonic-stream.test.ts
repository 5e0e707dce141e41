import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { childrenOf } from '../support/worker-process.js';

const run = promisify(execFile);

/** A few seconds of pink noise (a pure sine would let a VBR encoder stay far below the asked rate). */
const noise = (seconds: number, rate = 44100, channels = 2) => [
  '-f',
  'lavfi',
  '-i',
  `anoisesrc=duration=${seconds}:color=pink:amplitude=0.3:sample_rate=${rate}`,
  '-ac',
  String(channels),
];

interface Probe {
  streams: { codec_name: string }[];
  format: { duration: string; bit_rate: string };
}

let dir: string;
const media = { flac: '', mp3: '', long: '', hour: '' };
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-stream-'));
  media.flac = path.join(dir, 'noise.flac');
  media.mp3 = path.join(dir, 'noise.mp3');
  media.long = path.join(dir, 'long.flac');
  await run('ffmpeg', ['-v', 'error', ...noise(3), '-c:a', 'flac', media.flac]);
  await run('ffmpeg', ['-v', 'error', ...noise(3), '-c:a', 'libmp3lame', '-b:a', '128k', media.mp3]);
  // Two minutes of silence: a tiny FLAC, but 4.8 MB of 320 kbit/s MP3, still being made when the client goes.
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=44100', '-t', '120', '-c:a', 'flac', media.long]);
  // An hour of silence: a small FLAC, but 144 MB of 320 kbit/s MP3, far more than the sockets' buffers hold.
  media.hour = path.join(dir, 'hour.flac');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=44100', '-t', '3600', '-c:a', 'flac', media.hour]);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function probe(body: Buffer, name: string): Promise<Probe> {
  const file = path.join(dir, name);
  await writeFile(file, body);
  const { stdout } = await run('/usr/bin/ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout) as Probe;
}

/** ffmpeg processes this test process started that transcode for `stream` (not the library's own decodes). */
async function streamTranscodes(): Promise<number> {
  return (await childrenOf(process.pid)).filter(({ args }) => args.some((arg) => arg.includes('ffmpeg')) && args.includes('pipe:1')).length;
}

describe.each(engines)('Subsonic stream with transcoding (%s)', (engine) => {
  let t: TestApp;
  let base: string;
  let apiKey: string;
  let flac: Song;
  let mp3: Song;
  let long: Song;

  beforeAll(async () => {
    // One user opens all four of the process's transcodes below.
    t = await startTestApp(engine, { USER_MAX_TRANSCODES: '4' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = await account(t, 'ada');
    apiKey = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>()
      .key;
    flac = (await upload(t, token, media.flac, { fileName: 'noise.flac', contentType: 'audio/flac' })).song;
    mp3 = (await upload(t, token, media.mp3, { fileName: 'noise.mp3' })).song;
    long = (await upload(t, token, media.long, { fileName: 'long.flac', contentType: 'audio/flac' })).song;
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (query: string) => `${base}/rest/stream?apiKey=${encodeURIComponent(apiKey)}&v=1.16.1&c=test&f=json&${query}`;
  const get = async (query: string, init?: RequestInit) => {
    const response = await fetch(url(query), init);
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  it('transcodes to Opus in Ogg at a maxBitRate lower than the file, streamed without Range', async () => {
    const answer = await get(`id=${flac.id}&maxBitRate=96`, { headers: { range: 'bytes=0-99' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/ogg');
    expect(answer.headers.get('accept-ranges')).toBe('none');
    expect(answer.headers.get('content-length')).toBeNull();
    expect(Number(answer.headers.get('x-content-duration'))).toBeCloseTo(3, 0);
    const probed = await probe(answer.body, 'opus.ogg');
    expect(probed.streams.map((stream) => stream.codec_name)).toEqual(['opus']);
    expect(Number(probed.format.bit_rate)).toBeGreaterThan(96_000 * 0.5);
    expect(Number(probed.format.bit_rate)).toBeLessThan(96_000 * 1.5);
    expect(Number(probed.format.duration)).toBeCloseTo(3, 0);
  });

  it('transcodes to MP3 when asked, at the asked rate; Opus with its default rate', async () => {
    const answer = await get(`id=${flac.id}&format=mp3&maxBitRate=128`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/mpeg');
    const probed = await probe(answer.body, 'asked.mp3');
    expect(probed.streams.map((stream) => stream.codec_name)).toEqual(['mp3']);
    expect(Number(probed.format.bit_rate)).toBeGreaterThan(128_000 * 0.8);
    expect(Number(probed.format.bit_rate)).toBeLessThan(128_000 * 1.2);
    const opus = await get(`id=${flac.id}&format=OPUS`);
    expect(opus.headers.get('content-type')).toBe('audio/ogg');
    expect((await probe(opus.body, 'default.ogg')).streams[0]?.codec_name).toBe('opus');
  });

  it('sends the original bytes, with Range, for raw, a higher maxBitRate, the same codec, or an unknown format', async () => {
    const original = await readFile(media.mp3);
    const flacBytes = await readFile(media.flac);
    const ranged = await get(`id=${flac.id}&format=raw&maxBitRate=64`, { headers: { range: 'bytes=10-109' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('accept-ranges')).toBe('bytes');
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-109/${flacBytes.length}`);
    expect(ranged.body.equals(flacBytes.subarray(10, 110))).toBe(true);
    for (const query of [
      `id=${mp3.id}&maxBitRate=320`,
      `id=${mp3.id}&format=mp3`,
      `id=${mp3.id}&format=mp3&maxBitRate=192`,
      `id=${flac.id}&format=wma`,
      `id=${flac.id}`,
    ]) {
      const answer = await get(query);
      expect(answer.status, query).toBe(200);
      expect(answer.headers.get('accept-ranges'), query).toBe('bytes');
      expect(answer.body.equals(query.startsWith(`id=${mp3.id}`) ? original : flacBytes), query).toBe(true);
    }
  });

  it('starts at timeOffset (transcodeOffset), advertised among the extensions', async () => {
    const answer = await get(`id=${flac.id}&timeOffset=1`);
    expect(answer.headers.get('content-type')).toBe('audio/ogg');
    expect(Number(answer.headers.get('x-content-duration'))).toBeCloseTo(2, 0);
    expect(Number((await probe(answer.body, 'offset.ogg')).format.duration)).toBeCloseTo(2, 0);
    const mp3Offset = await get(`id=${flac.id}&format=mp3&timeOffset=1`);
    expect(Number((await probe(mp3Offset.body, 'offset.mp3')).format.duration)).toBeCloseTo(2, 0);
    const extensions = (await (await fetch(`${base}/rest/getOpenSubsonicExtensions?f=json`)).json()) as {
      'subsonic-response': { openSubsonicExtensions: { name: string; versions: number[] }[] };
    };
    expect(extensions['subsonic-response'].openSubsonicExtensions).toContainEqual({ name: 'transcodeOffset', versions: [1] });
  });

  it('answers bad inputs with Subsonic errors', async () => {
    const failure = async (query: string) =>
      (JSON.parse((await get(query)).body.toString('utf8')) as { 'subsonic-response': { error?: { code: number } } })['subsonic-response'].error?.code;
    expect(await failure('id=999999&maxBitRate=96')).toBe(70);
    expect(await failure(`id=${flac.id}&maxBitRate=fast`)).toBe(0);
    expect(await failure(`id=${flac.id}&timeOffset=-`)).toBe(0);
    expect(await failure('maxBitRate=96')).toBe(10);
  });

  /** A plain connection of its own (no keep-alive pool) to the long song's transcode, not read beyond what comes. */
  const openLong = () =>
    new Promise<IncomingMessage>((resolve, reject) => httpGet(url(`id=${long.id}&format=mp3&maxBitRate=320`), { agent: false }, resolve).once('error', reject));

  it('refuses a fifth transcode at once with error 0, and takes one again when a stream ends', async () => {
    const open = await Promise.all([openLong(), openLong(), openLong(), openLong()]);
    expect(open.map((response) => response.headers['content-type'])).toEqual(Array(4).fill('audio/mpeg'));
    const refused = JSON.parse((await get(`id=${flac.id}&maxBitRate=96`)).body.toString('utf8')) as {
      'subsonic-response': { error?: { code: number; message: string } };
    };
    expect(refused['subsonic-response'].error).toEqual({ code: 0, message: 'Too many streams at once' });
    // The original needs no ffmpeg: still served.
    expect((await get(`id=${mp3.id}`)).headers.get('content-type')).toBe('audio/mpeg');
    for (const response of open) response.socket.destroy();
    await expect.poll(streamTranscodes, { timeout: 5000, interval: 20 }).toBe(0);
    await expect.poll(async () => (await get(`id=${flac.id}&maxBitRate=96`)).headers.get('content-type'), { timeout: 5000, interval: 20 }).toBe('audio/ogg');
  });

  it('stops ffmpeg when the client goes away mid-stream', async () => {
    const response = await openLong();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/mpeg');
    await once(response, 'readable');
    expect(await streamTranscodes()).toBe(1);
    response.socket.destroy();
    await expect.poll(streamTranscodes, { timeout: 5000, interval: 20 }).toBe(0);
  });
});

describe.each(engines)('Subsonic transcode slots per user (%s)', (engine) => {
  let t: TestApp;
  let base: string;
  const keys = { alice: '', bob: '' };
  let flac: Song;
  let hour: Song;

  beforeAll(async () => {
    t = await startTestApp(engine, { USER_MAX_TRANSCODES: '2', TRANSCODE_IDLE_SECONDS: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    for (const name of ['alice', 'bob'] as const) {
      const token = await account(t, name);
      keys[name] = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{
        key: string;
      }>().key;
      if (name === 'alice') {
        flac = (await upload(t, token, media.flac, { fileName: 'noise.flac', contentType: 'audio/flac' })).song;
        hour = (await upload(t, token, media.hour, { fileName: 'hour.flac', contentType: 'audio/flac' })).song;
      }
    }
    // Bob plays Alice's songs: a shared library (SPEC), so both stream the same files.
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (user: keyof typeof keys, query: string) => `${base}/rest/stream?apiKey=${encodeURIComponent(keys[user])}&v=1.16.1&c=test&f=json&${query}`;
  /** A stream of the hour-long song whose client reads nothing at all (it is never consumed). */
  const openUnread = (user: keyof typeof keys) =>
    new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(url(user, `id=${hour.id}&format=mp3&maxBitRate=320`), { agent: false }, resolve).once('error', reject),
    );
  const streamType = async (user: keyof typeof keys) => {
    const response = await fetch(url(user, `id=${flac.id}&format=opus`));
    const body = Buffer.from(await response.arrayBuffer());
    return response.headers.get('content-type') === 'audio/ogg' ? 'audio/ogg' : body.toString('utf8');
  };

  it("gives a user at most their share of the slots, so another user's transcoded stream still plays", async () => {
    const held = await Promise.all([openUnread('alice'), openUnread('alice')]);
    expect(held.map((response) => response.headers['content-type'])).toEqual(['audio/mpeg', 'audio/mpeg']);
    const refused = JSON.parse(await streamType('alice')) as { 'subsonic-response': { error?: unknown } };
    expect(refused['subsonic-response'].error).toEqual({ code: 0, message: 'Too many streams at once' });
    expect(await streamType('bob')).toBe('audio/ogg');
    for (const response of held) response.socket.destroy();
    await expect.poll(streamTranscodes, { timeout: 10_000, interval: 20 }).toBe(0);
  });

  it('ends a stream whose client reads nothing for TRANSCODE_IDLE_SECONDS, stopping ffmpeg and giving its slot back', async () => {
    const held = await Promise.all([openUnread('alice'), openUnread('alice')]);
    expect(held.map((response) => response.headers['content-type'])).toEqual(['audio/mpeg', 'audio/mpeg']);
    expect(await streamTranscodes()).toBe(2);
    // Nothing is read: once the sockets' buffers are full, a second later the server ends both.
    await expect.poll(streamTranscodes, { timeout: 30_000, interval: 50 }).toBe(0);
    expect(await streamType('alice')).toBe('audio/ogg');
    for (const response of held) response.socket.destroy();
  });

  it('keeps a stream whose client reads now and then, for longer than the idle time in all', async () => {
    const response = await openUnread('bob');
    let bytes = 0;
    let bursts = 0;
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
    // A player's way: it reads a while, pauses less than TRANSCODE_IDLE_SECONDS, reads again.
    const player = setInterval(() => {
      if (response.isPaused()) {
        bursts += 1;
        response.resume();
      } else response.pause();
    }, 300);
    try {
      await expect.poll(() => bursts, { timeout: 30_000, interval: 50 }).toBeGreaterThan(8);
      const before = bytes;
      await expect.poll(() => bytes, { timeout: 10_000, interval: 50 }).toBeGreaterThan(before);
      expect(await streamTranscodes()).toBe(1);
    } finally {
      clearInterval(player);
      response.socket.destroy();
    }
    await expect.poll(streamTranscodes, { timeout: 10_000, interval: 20 }).toBe(0);
  });
});
