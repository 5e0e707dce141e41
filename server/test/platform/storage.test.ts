import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { ConflictError, NotFoundError, PayloadTooLargeError, RangeNotSatisfiableError, ValidationError } from '../../src/platform/errors/app-errors.js';
import type { Logger } from '../../src/platform/logger.js';
import { LocalStorage } from '../../src/platform/storage/local.storage.js';
import { S3Storage } from '../../src/platform/storage/s3.storage.js';
import { createStorage } from '../../src/platform/storage/storage.js';
import type { Storage } from '../../src/platform/storage/storage.types.js';

/** s3rver ships no types; this is the part of it the tests use. */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const quietLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };
const deps = { signingSecret: 'x'.repeat(32), logger: quietLogger, maxUploadBytes: 1024 * 1024 };
const BUCKET = 'encore-test';

interface Harness {
  storage: Storage;
  /** Every file under the local root, to prove nothing (not even a temp file) is left over. */
  files(): Promise<string[]>;
  teardown(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-storage-'));
  const root = path.join(dir, 'media');
  const storage = await createStorage({ driver: 'local', root }, deps);
  return {
    storage,
    files: () => listFiles(root),
    teardown: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

async function s3Harness(): Promise<Harness> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  const config: Config['storage'] = {
    driver: 's3',
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const storage = await createStorage(config, deps);
  if (!(storage instanceof S3Storage)) throw new Error('expected the S3 driver');
  await storage.client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return {
    storage,
    files: async () => (await fs.readdir(os.tmpdir())).filter((name) => name.startsWith('encore-upload-')),
    async teardown() {
      storage.client.destroy();
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function bytes(length: number): Buffer {
  return Buffer.from(Array.from({ length }, (_, i) => i % 251));
}

function chunked(data: Buffer, size = 1000): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) parts.push(data.subarray(i, i + size));
  return Readable.from(parts);
}

describe.each([
  { driver: 'local', setup: localHarness },
  { driver: 's3', setup: s3Harness },
])('$driver storage', ({ driver, setup }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await setup();
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it('reports its driver and passes its health check', async () => {
    expect(h.storage.driver).toBe(driver);
    await expect(h.storage.check()).resolves.toBeUndefined();
  });

  it('stores, reads, stats and deletes an object', async () => {
    const key = 'songs/0b7c1d52-0a39-4e0b-9a43-6a0f1c1e2f30/Take Five.mp3'.replace(' ', '_');
    const data = bytes(4096);
    await h.storage.put(key, data, { contentType: 'audio/mpeg' });
    expect(await h.storage.stat(key)).toEqual({ size: 4096, contentType: 'audio/mpeg' });
    const object = await h.storage.get(key);
    expect(object.size).toBe(4096);
    expect(object.contentType).toBe('audio/mpeg');
    expect(object.range).toBeUndefined();
    expect((await readAll(object.stream)).equals(data)).toBe(true);
    await h.storage.delete(key);
    expect(await h.storage.stat(key)).toBeNull();
    await expect(h.storage.delete(key)).resolves.toBeUndefined();
  });

  it('streams uploads in and keeps the latest content type on overwrite', async () => {
    const key = 'covers/a1/cover.png';
    const data = bytes(50_000);
    await h.storage.put(key, chunked(data), { contentType: 'image/png' });
    expect(await h.storage.stat(key)).toEqual({ size: 50_000, contentType: 'image/png' });
    expect((await readAll((await h.storage.get(key)).stream)).equals(data)).toBe(true);
    await h.storage.put(key, Buffer.from('<svg/>'), { contentType: 'image/svg+xml' });
    const object = await h.storage.get(key);
    expect(object.contentType).toBe('image/svg+xml');
    expect((await readAll(object.stream)).toString()).toBe('<svg/>');
  });

  it('reads byte ranges', async () => {
    const key = 'songs/r1/range.bin';
    const data = bytes(100);
    await h.storage.put(key, data, { contentType: 'application/octet-stream' });

    const middle = await h.storage.get(key, { start: 10, end: 19 });
    expect(middle.range).toEqual({ start: 10, end: 19 });
    expect(middle.size).toBe(100);
    expect((await readAll(middle.stream)).equals(data.subarray(10, 20))).toBe(true);

    const tail = await h.storage.get(key, { start: 90 });
    expect(tail.range).toEqual({ start: 90, end: 99 });
    expect((await readAll(tail.stream)).equals(data.subarray(90))).toBe(true);

    const clamped = await h.storage.get(key, { start: 95, end: 5000 });
    expect(clamped.range).toEqual({ start: 95, end: 99 });
    expect((await readAll(clamped.stream)).equals(data.subarray(95))).toBe(true);

    const error = await h.storage.get(key, { start: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeNotSatisfiableError);
    expect((error as RangeNotSatisfiableError).size).toBe(100);
    await expect(h.storage.get(key, { start: 5, end: 2 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('answers NotFoundError and null for a missing key', async () => {
    await expect(h.storage.get('songs/nope/missing.mp3')).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.storage.get('songs/nope/missing.mp3', { start: 0, end: 1 })).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.storage.stat('songs/nope/missing.mp3')).toBeNull();
  });

  it('rejects keys that could escape or confuse the store', async () => {
    const bad = [
      '',
      '/etc/passwd',
      '../secret',
      'songs/../../etc/passwd',
      'a/./b',
      'a//b',
      'a/',
      'a\\b',
      'a\0b',
      '.meta/x.json',
      'songs/.hidden',
      'songs/x y.mp3',
      'songs/é.mp3',
      'x'.repeat(513),
    ];
    for (const key of bad) {
      await expect(h.storage.put(key, Buffer.from('x')), JSON.stringify(key)).rejects.toBeInstanceOf(ValidationError);
      await expect(h.storage.get(key)).rejects.toBeInstanceOf(ValidationError);
      await expect(h.storage.stat(key)).rejects.toBeInstanceOf(ValidationError);
      await expect(h.storage.delete(key)).rejects.toBeInstanceOf(ValidationError);
      await expect(h.storage.presignGet(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(ValidationError);
      await expect(h.storage.presignPut(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(h.storage.put('songs/ok/x.mp3', Buffer.from('x'), { contentType: 'audio/mpeg\r\nx-evil: 1' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses uploads over maxBytes and keeps nothing', async () => {
    const before = await h.files();
    const key = 'songs/big/too-large.mp3';
    const error = await h.storage.put(key, chunked(bytes(10_000)), { maxBytes: 4096 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as Error).message).toMatch(/^File is too large\. The limit is .+ MB\.$/);
    await expect(h.storage.put(key, bytes(4097), { maxBytes: 4096 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await h.storage.stat(key)).toBeNull();
    expect(await h.files()).toEqual(before);

    await h.storage.put(key, chunked(bytes(4096)), { maxBytes: 4096, contentType: 'audio/mpeg' });
    await expect(h.storage.put(key, chunked(bytes(8192)), { maxBytes: 4096, contentType: 'text/plain' })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await h.storage.stat(key)).toEqual({ size: 4096, contentType: 'audio/mpeg' });
  });

  it('moves an object to a new key, never over an existing one, and not with later writes to the old key', async () => {
    const from = 'uploads/1/m1/song.mp3';
    const to = 'songs/m1/song.mp3';
    const data = bytes(3000);
    await h.storage.put(from, data, { contentType: 'audio/mpeg' });
    await h.storage.move(from, to);
    expect(await h.storage.stat(from)).toBeNull();
    expect(await h.storage.stat(to)).toEqual({ size: 3000, contentType: 'audio/mpeg' });

    // A write to the old key afterwards (a replayed upload link) does not reach the moved object.
    await h.storage.put(from, Buffer.from('<html>not audio</html>'), { contentType: 'text/html' });
    expect((await readAll((await h.storage.get(to)).stream)).equals(data)).toBe(true);
    // Nor can a second move overwrite it.
    await expect(h.storage.move(from, to)).rejects.toBeInstanceOf(ConflictError);
    expect((await readAll((await h.storage.get(to)).stream)).equals(data)).toBe(true);
    expect(await h.storage.stat(from)).not.toBeNull();

    await expect(h.storage.move('uploads/1/m1/missing.mp3', 'songs/m1/missing.mp3')).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.storage.stat('songs/m1/missing.mp3')).toBeNull();
    await expect(h.storage.move('../x', 'songs/x')).rejects.toBeInstanceOf(ValidationError);
    await h.storage.delete(from);
    await h.storage.delete(to);
  });

  it('lists the objects under a prefix, with size and last-modified time, past one page', async () => {
    const before = new Date(Date.now() - 2000);
    const keys = Array.from({ length: 1003 }, (_, i) => `listing/${String(i).padStart(4, '0')}/x.bin`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((key) => h.storage.put(key, Buffer.from('abc'))));
    await h.storage.put('listing-not/x.bin', Buffer.from('abcd'));
    const listed = [];
    for await (const object of h.storage.list('listing/')) listed.push(object);
    expect(listed.map((object) => object.key).sort()).toEqual(keys);
    expect(listed.every((object) => object.size === 3 && object.lastModified > before && object.lastModified <= new Date())).toBe(true);
    const none = [];
    for await (const object of h.storage.list('nothing-here/')) none.push(object);
    expect(none).toEqual([]);
    await Promise.all([...keys, 'listing-not/x.bin'].map((key) => h.storage.delete(key)));
  });

  if (driver === 'local') {
    it('removes the temp files a crash left behind, but not fresh ones or objects', async () => {
      const root = (h.storage as LocalStorage).root;
      await h.storage.put('sweep/t1/full.jpg', Buffer.from('jpeg'), { contentType: 'image/jpeg' });
      const stale = [path.join(root, 'sweep', 't1', '.0123456789abcdef.tmp'), path.join(root, '.meta', 'sweep', 't1', '.fedcba9876543210.tmp')];
      const fresh = path.join(root, 'sweep', 't1', '.00112233445566ff.tmp');
      const old = new Date(Date.now() - 3600_000);
      for (const file of [...stale, fresh]) await fs.writeFile(file, 'half a write');
      for (const file of stale) await fs.utimes(file, old, old);
      const listed = [];
      for await (const object of h.storage.list('sweep/')) listed.push(object.key);
      expect(listed).toEqual(['sweep/t1/full.jpg']);

      expect(await h.storage.removeStaleTempFiles(new Date(Date.now() - 60_000))).toBe(2);
      expect((await h.files()).filter((file) => file.endsWith('.tmp'))).toEqual(['sweep/t1/.00112233445566ff.tmp']);
      expect(await h.storage.stat('sweep/t1/full.jpg')).not.toBeNull();
      await fs.rm(fresh);
      await h.storage.delete('sweep/t1/full.jpg');
    });
  }

  if (driver === 's3') {
    it('removes upload spools a crash left in the temp folder, but not fresh ones', async () => {
      const stale = path.join(os.tmpdir(), `encore-upload-${'0a'.repeat(8)}`);
      const fresh = path.join(os.tmpdir(), `encore-upload-${'0b'.repeat(8)}`);
      await fs.writeFile(stale, 'x');
      await fs.writeFile(fresh, 'x');
      const old = new Date(Date.now() - 3600_000);
      await fs.utimes(stale, old, old);
      expect(await h.storage.removeStaleTempFiles(new Date(Date.now() - 60_000))).toBeGreaterThanOrEqual(1);
      await expect(fs.stat(stale)).rejects.toThrow();
      expect((await fs.stat(fresh)).isFile()).toBe(true);
      await fs.rm(fresh);
    });
  }

  if (driver === 'local') {
    it('signs relative URLs below /api/storage, or absolute ones with a public base URL', async () => {
      const url = await h.storage.presignGet('songs/u1/a(1).mp3', { expiresInSeconds: 60, downloadName: 'A.mp3' });
      expect(url).toMatch(/^\/api\/storage\/o\/songs\/u1\/a\(1\)\.mp3\?op=get&exp=\d+&dn=A\.mp3&sig=[\w-]{43}$/);
      const put = await h.storage.presignPut('songs/u1/a.mp3', { expiresInSeconds: 60, contentType: 'audio/mpeg' });
      expect(put).toMatch(/^\/api\/storage\/o\/songs\/u1\/a\.mp3\?op=put&exp=\d+&ct=audio%2Fmpeg&sig=/);
      const root = path.join(os.tmpdir(), `encore-public-${process.pid}`);
      const absolute = await LocalStorage.create({ ...deps, root, publicBaseUrl: 'https://music.example.org/' });
      expect(await absolute.presignGet('songs/u1/a.mp3', { expiresInSeconds: 60 })).toMatch(
        /^https:\/\/music\.example\.org\/api\/storage\/o\/songs\/u1\/a\.mp3\?/,
      );
      await fs.rm(root, { recursive: true, force: true });
    });

    it('fails its health check when the root is unusable', async () => {
      const file = path.join(os.tmpdir(), `encore-not-a-dir-${process.pid}`);
      await fs.writeFile(file, 'x');
      const broken = await createStorage({ driver: 'local', root: file }, deps).catch((e: unknown) => e);
      expect(broken).toBeInstanceOf(Error);
      await fs.rm(file, { force: true });
    });
  }

  if (driver === 's3') {
    it('hands out presigned URLs a browser can PUT to and GET (with Range) from', async () => {
      const key = 'songs/p1/presigned.mp3';
      const data = bytes(1000);
      const putUrl = await h.storage.presignPut(key, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
      const put = await fetch(putUrl, { method: 'PUT', body: data, headers: { 'content-type': 'audio/mpeg' } });
      expect(put.status).toBe(200);
      expect(await h.storage.stat(key)).toEqual({ size: 1000, contentType: 'audio/mpeg' });

      const getUrl = await h.storage.presignGet(key, { expiresInSeconds: 60, downloadName: 'Café.mp3' });
      const whole = await fetch(getUrl);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="Cafe.mp3"; filename*=UTF-8''Caf%C3%A9.mp3`);
      expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);

      const part = await fetch(getUrl, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
      expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);

      // s3rver does not check SigV4 signatures, so what real S3 enforces is asserted on the URL.
      const signed = new URL(putUrl).searchParams;
      expect(signed.get('X-Amz-Expires')).toBe('60');
      expect(signed.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
      expect(new URL(getUrl).searchParams.get('X-Amz-Expires')).toBe('60');
    });

    it('fails its health check for a bucket that does not exist', async () => {
      const s3 = h.storage as S3Storage;
      const endpoint = await s3.client.config.endpoint?.();
      const missing = new S3Storage({
        bucket: 'no-such-bucket',
        region: 'us-east-1',
        endpoint: `http://${endpoint?.hostname}:${endpoint?.port}`,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        logger: quietLogger,
      });
      await expect(missing.check()).rejects.toThrow();
      missing.client.destroy();
    });
  }
});
