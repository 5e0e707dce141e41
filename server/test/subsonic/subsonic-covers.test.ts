import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { account, bearer, upload } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);

let dir: string;
/** Songs whose embedded covers are 1100 x 900 (kept as they are: within the stored 1200) and 200 x 200. */
let files: { large: string; small: string };

async function songWithCover(name: string, width: number, height: number): Promise<string> {
  const picture = path.join(dir, `${name}.jpg`);
  await writeFile(
    picture,
    await sharp({ create: { width, height, channels: 3, background: '#2080c0' } })
      .jpeg()
      .toBuffer(),
  );
  const file = path.join(dir, `${name}.mp3`);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-i', picture],
    ...['-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-c:v', 'copy', '-disposition:v:0', 'attached_pic', '-id3v2_version', '3'],
    ...['-metadata', `title=${name}`, file],
  ]);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'encore-subsonic-covers-'));
  files = { large: await songWithCover('Large Cover', 1100, 900), small: await songWithCover('Small Cover', 200, 200) };
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('Subsonic getCoverArt at any size (%s)', (engine) => {
  let t: TestApp;
  let key: string;
  let large: Song;
  let small: Song;

  beforeAll(async () => {
    t = await startTestApp(engine);
    const token = await account(t, 'ada');
    key = (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Phone' } })).json<{ key: string }>().key;
    large = (await upload(t, token, files.large, { fileName: 'large.mp3' })).song;
    small = (await upload(t, token, files.small, { fileName: 'small.mp3' })).song;
  });
  afterAll(async () => t?.close());

  const cover = async (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/rest/getCoverArt?${query}&apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json`, headers });
  const sizeOf = async (query: string) => {
    const response = await cover(query);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const { width, height } = await sharp(response.rawPayload).metadata();
    return [width, height];
  };

  it('answers the nearest size at or above the one asked, resized from the cover with its shape kept', async () => {
    expect(await sizeOf(`id=${large.id}&size=100`)).toEqual([128, 105]);
    expect(await sizeOf(`id=${large.id}&size=20`)).toEqual([32, 26]);
    expect(await sizeOf(`id=${large.id}&size=300`)).toEqual([300, 245]);
    expect(await sizeOf(`id=${large.id}&size=257`)).toEqual([300, 245]);
    expect(await sizeOf(`id=${large.id}&size=500`)).toEqual([512, 419]);
    expect(await sizeOf(`id=${large.id}&size=1000`)).toEqual([1024, 838]);
    // Beyond the sizes, without a size, or a size that is no size: the cover itself.
    for (const query of [`id=${large.id}&size=1100`, `id=${large.id}&size=99999`, `id=${large.id}`, `id=${large.id}&size=0`, `id=${large.id}&size=-4`]) {
      expect(await sizeOf(query), query).toEqual([1100, 900]);
    }
  });

  it('never enlarges: a size above a small cover is the cover', async () => {
    expect(await sizeOf(`id=${small.id}&size=100`)).toEqual([128, 128]);
    expect(await sizeOf(`id=${small.id}&size=250`)).toEqual([200, 200]);
    expect(await sizeOf(`id=${small.id}&size=600`)).toEqual([200, 200]);
    // Known to be small now: the same answer, with the cover's own validator.
    const full = await cover(`id=${small.id}`);
    expect((await cover(`id=${small.id}&size=600`)).headers['etag']).toBe(full.headers['etag']);
  });

  it('keeps a rendition once made, validated by its own ETag', async () => {
    const first = await cover(`id=${large.id}&size=700`);
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/-768"$/);
    const stored: string[] = [];
    for await (const object of t.app.encore.platform.storage.list('covers/sized/')) stored.push(object.key);
    expect(stored).toContain(`covers/sized/${etag.replace(/"/g, '')}.jpg`);
    const again = await cover(`id=${large.id}&size=760`);
    expect(again.headers['etag']).toBe(etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await cover(`id=${large.id}&size=700`, { 'if-none-match': etag })).statusCode).toBe(304);
    // Another size is another picture with another validator.
    expect((await cover(`id=${large.id}&size=100`)).headers['etag']).not.toBe(etag);
  });

  it('refuses a size that is not a number, and unknown ids', async () => {
    const bad = (await cover(`id=${large.id}&size=big`)).json<{ 'subsonic-response': { error: { code: number } } }>();
    expect(bad['subsonic-response'].error.code).toBe(0);
    const unknown = (await cover('id=999999&size=100')).json<{ 'subsonic-response': { error: { code: number } } }>();
    expect(unknown['subsonic-response'].error.code).toBe(70);
    const missing = (await cover('size=100')).json<{ 'subsonic-response': { error: { code: number } } }>();
    expect(missing['subsonic-response'].error.code).toBe(10);
  });
});
