import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installErrorHandler } from '../../src/platform/http/error-handler.js';
import type { Logger } from '../../src/platform/logger.js';
import { localStorageRoutes } from '../../src/platform/storage/local-storage.routes.js';
import { LOCAL_STORAGE_ROUTE_PREFIX, LocalStorage } from '../../src/platform/storage/local.storage.js';

const quietLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };
const MAX_UPLOAD = 1024 * 1024;
const INVALID = { message: 'This link is invalid or has expired.' };

let dir: string;
let storage: LocalStorage;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-storage-routes-'));
  storage = await LocalStorage.create({
    root: path.join(dir, 'media'),
    signingSecret: 's'.repeat(32),
    maxUploadBytes: MAX_UPLOAD,
    logger: quietLogger,
  });
  app = Fastify();
  installErrorHandler(app);
  app.post('/api/echo', async (request) => ({ echoed: request.body }));
  await app.register(localStorageRoutes(storage, { deadlineMs: 60_000, stallMs: 10_000, perOwner: 4 }), { prefix: LOCAL_STORAGE_ROUTE_PREFIX });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
  await fs.rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

async function filesOnDisk(): Promise<string[]> {
  const entries = await fs.readdir(storage.root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(storage.root, path.join(entry.parentPath, entry.name)));
}

function bytes(length: number): Buffer {
  return Buffer.from(Array.from({ length }, (_, i) => i % 251));
}

async function stored(key: string, data: Buffer, contentType = 'audio/mpeg'): Promise<string> {
  await storage.put(key, data, { contentType });
  return storage.presignGet(key, { expiresInSeconds: 300 });
}

describe('local storage routes', () => {
  it('round-trips a signed PUT and GET', async () => {
    const key = 'songs/5d8c2f4e/a(1)+b@c.mp3';
    const data = bytes(3000);
    const putUrl = await storage.presignPut(key, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    const put = await app.inject({ method: 'PUT', url: putUrl, payload: data, headers: { 'content-type': 'audio/mpeg' } });
    expect(put.statusCode).toBe(200);
    expect(await storage.stat(key)).toEqual({ size: 3000, contentType: 'audio/mpeg' });

    const get = await app.inject({ method: 'GET', url: await storage.presignGet(key, { expiresInSeconds: 120 }) });
    expect(get.statusCode).toBe(200);
    expect(get.headers['accept-ranges']).toBe('bytes');
    expect(get.headers['content-type']).toBe('audio/mpeg');
    expect(get.headers['content-length']).toBe('3000');
    expect(get.headers['cache-control']).toMatch(/^private, max-age=1[12]\d$/);
    expect(get.headers['content-disposition']).toBeUndefined();
    expect(get.rawPayload.equals(data)).toBe(true);
  });

  it('streams uploads over a real connection, with and without Content-Length', async () => {
    const key = 'songs/real/upload.mp3';
    const data = bytes(200_000);
    const url = origin + (await storage.presignPut(key, { contentType: 'audio/mpeg', expiresInSeconds: 60 }));
    expect((await fetch(url, { method: 'PUT', body: data, headers: { 'content-type': 'audio/mpeg' } })).status).toBe(200);
    const chunked = await fetch(url, { method: 'PUT', body: streamOf(data, 16_384), headers: { 'content-type': 'audio/mpeg' }, duplex: 'half' });
    expect(chunked.status).toBe(200);
    const get = await fetch(origin + (await storage.presignGet(key, { expiresInSeconds: 60 })));
    expect(Buffer.from(await get.arrayBuffer()).equals(data)).toBe(true);
  });

  it('stores the type the uploader sends when the URL does not fix one', async () => {
    const key = 'covers/c1/cover.png';
    const putUrl = await storage.presignPut(key, { expiresInSeconds: 60 });
    const put = await app.inject({ method: 'PUT', url: putUrl, payload: bytes(10), headers: { 'content-type': 'image/png' } });
    expect(put.statusCode).toBe(200);
    expect((await storage.stat(key))?.contentType).toBe('image/png');
    const empty = await app.inject({ method: 'PUT', url: await storage.presignPut('covers/c1/empty.bin', { expiresInSeconds: 60 }) });
    expect(empty.statusCode).toBe(200);
    expect(await storage.stat('covers/c1/empty.bin')).toEqual({ size: 0, contentType: undefined });
  });

  it('refuses a PUT whose Content-Type differs from the signed one', async () => {
    const putUrl = await storage.presignPut('songs/t/typed.mp3', { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    const put = await app.inject({ method: 'PUT', url: putUrl, payload: '<html>', headers: { 'content-type': 'text/html' } });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toEqual(INVALID);
    expect(await storage.stat('songs/t/typed.mp3')).toBeNull();
  });

  it('refuses tampered, expired, mismatched and re-pointed links with 403', async () => {
    const getUrl = await stored('songs/s/signed.mp3', bytes(100));
    await storage.put('songs/s/other.mp3', bytes(5));
    const tampered = getUrl.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const attempts = [
      app.inject({ method: 'GET', url: tampered }),
      app.inject({ method: 'GET', url: getUrl.replace(/exp=\d+/, (m) => `${m}0`) }),
      app.inject({ method: 'GET', url: getUrl.replace('signed.mp3', 'other.mp3') }),
      app.inject({ method: 'GET', url: getUrl.replace(/&sig=[^&]+/, '') }),
      app.inject({ method: 'GET', url: `${getUrl}&dn=evil.html` }),
      app.inject({ method: 'PUT', url: getUrl, payload: 'overwrite', headers: { 'content-type': 'audio/mpeg' } }),
      app.inject({ method: 'GET', url: await storage.presignPut('songs/s/signed.mp3', { expiresInSeconds: 60 }) }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(INVALID);
    }
    expect((await storage.stat('songs/s/signed.mp3'))?.size).toBe(100);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 10 * 60_000);
    const expired = await storage.presignGet('songs/s/signed.mp3', { expiresInSeconds: 60 });
    const expiredPut = await storage.presignPut('songs/s/signed.mp3', { expiresInSeconds: 60 });
    vi.useRealTimers();
    expect((await app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: expiredPut, payload: 'x' })).statusCode).toBe(403);
  });

  it('answers 413 to an oversized upload and keeps nothing, not even a temp file', async () => {
    const before = await filesOnDisk();
    const key = 'songs/big/huge.mp3';
    const putUrl = await storage.presignPut(key, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    const tooLarge = { message: 'File is too large. The limit is 1 MB.' };

    const declared = await app.inject({ method: 'PUT', url: putUrl, payload: bytes(MAX_UPLOAD + 1), headers: { 'content-type': 'audio/mpeg' } });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual(tooLarge);

    // No Content-Length: the limit is found while streaming, over a real socket.
    const streamed = await fetch(origin + putUrl, {
      method: 'PUT',
      body: streamOf(bytes(3 * MAX_UPLOAD), 64 * 1024),
      headers: { 'content-type': 'audio/mpeg' },
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual(tooLarge);

    expect(await storage.stat(key)).toBeNull();
    expect(await filesOnDisk()).toEqual(before);
  });

  it('keeps nothing when the client disconnects mid-upload', async () => {
    const before = await filesOnDisk();
    const key = 'songs/cut/aborted.mp3';
    const putUrl = await storage.presignPut(key, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    const request = http.request(origin + putUrl, { method: 'PUT', headers: { 'content-type': 'audio/mpeg', 'content-length': '500000' } });
    request.on('error', () => {});
    request.write(bytes(100_000));
    await waitFor(async () => (await filesOnDisk()).length > before.length); // the temp file exists
    request.destroy();
    await waitFor(async () => (await filesOnDisk()).length === before.length);
    expect(await filesOnDisk()).toEqual(before);
    expect(await storage.stat(key)).toBeNull();
  });

  it('serves byte ranges with 206, and 416 for bad ones', async () => {
    const data = bytes(100);
    const url = await stored('songs/r/range.mp3', data);

    const middle = await app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe('bytes 10-19/100');
    expect(middle.headers['content-length']).toBe('10');
    expect(middle.rawPayload.equals(data.subarray(10, 20))).toBe(true);

    const suffix = await app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe('bytes 90-99/100');
    expect(suffix.headers['content-length']).toBe('10');
    expect(suffix.rawPayload.equals(data.subarray(90))).toBe(true);

    const open = await app.inject({ method: 'GET', url, headers: { range: 'bytes=95-' } });
    expect(open.headers['content-range']).toBe('bytes 95-99/100');
    expect(open.rawPayload.equals(data.subarray(95))).toBe(true);

    for (const range of ['bytes=100-', 'bytes=abc', 'bytes=9-2', 'lines=1-2']) {
      const bad = await app.inject({ method: 'GET', url, headers: { range } });
      expect(bad.statusCode, range).toBe(416);
      expect(bad.headers['content-range']).toBe('bytes */100');
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const url = await stored('songs/h/head.mp3', bytes(100));
    const head = await app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('100');
    expect(head.headers['content-type']).toBe('audio/mpeg');
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.rawPayload.length).toBe(0);
    const ranged = await app.inject({ method: 'HEAD', url, headers: { range: 'bytes=0-49' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-length']).toBe('50');
    expect(ranged.headers['content-range']).toBe('bytes 0-49/100');
  });

  it('serves an empty object, and leaves no file open after HEAD, 416, empty and aborted reads', async () => {
    const emptyUrl = await stored('songs/e/empty.mp3', Buffer.alloc(0));
    const empty = await app.inject({ method: 'GET', url: emptyUrl });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-length']).toBe('0');
    expect(empty.rawPayload.length).toBe(0);

    const big = bytes(4 * 1024 * 1024);
    const url = await stored('songs/e/held.mp3', big);
    for (const range of [undefined, 'bytes=0-0', 'bytes=999999999-', 'bytes=abc']) {
      await app.inject({ method: 'HEAD', url, ...(range ? { headers: { range } } : {}) });
      await app.inject({ method: 'GET', url, ...(range ? { headers: { range } } : {}) });
    }
    // A listener that leaves after the first bytes of a 4 MB song.
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${origin}${url}`, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
    });
    const openOnes = async () => {
      const links = await Promise.all((await fs.readdir('/proc/self/fd')).map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
      return links.filter((link) => link.startsWith(storage.root)).length;
    };
    await expect.poll(openOnes).toBe(0);
  });

  it('serves downloads under their name and type, and 404 for a missing object', async () => {
    await storage.put('songs/d/x.mp3', bytes(20), { contentType: 'audio/mpeg' });
    const url = await storage.presignGet('songs/d/x.mp3', { expiresInSeconds: 60, downloadName: 'Café.mp3', contentType: 'application/octet-stream' });
    const download = await app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Cafe.mp3"; filename*=UTF-8''Caf%C3%A9.mp3`);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-security-policy']).toBe('sandbox');

    const missing = await app.inject({ method: 'GET', url: await storage.presignGet('songs/d/gone.mp3', { expiresInSeconds: 60 }) });
    expect(missing.statusCode).toBe(404);
  });

  it('leaves the rest of the app parsing JSON as usual', async () => {
    const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { hello: 'world' } });
    expect(echo.json()).toEqual({ echoed: { hello: 'world' } });
  });
});

function streamOf(data: Buffer, chunkSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
