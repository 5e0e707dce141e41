import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { resumableUpload, type Song } from '@encore/common/library.contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryModule } from '../../src/features/library/library.module.js';
import { ResumableUploadService } from '../../src/features/library/tus/resumable-upload.service.js';
import { createTusStaging } from '../../src/features/library/tus/tus-stores.js';
import type { Logger } from '../../src/platform/logger.js';
import { engines, startTestApp } from '../support/test-app.js';
import { account, bearer, fetchUrl, type LibraryApp, type Setup } from './library-test-kit.js';
import { startMultipartS3 } from './s3-multipart-loopback.js';

const TUS = { 'tus-resumable': '1.0.0' };
const MB = 1024 * 1024;

/** A PCM WAV (16-bit mono, 44.1 kHz) of noise: `dataBytes` of samples after a 44-byte header. */
function wav(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(88_200, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, randomBytes(dataBytes)]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `${name} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** Every database on local storage, and S3 (s3rver with the multipart calls tus needs) on PGlite. */
const setups: Setup[] = [...engines.map((engine) => ({ engine, storage: 'local' as const })), { engine: 'pglite', storage: 's3' }];

async function startApp(setup: Setup, env: Record<string, string>): Promise<LibraryApp> {
  const s3 = setup.storage === 's3' ? await startMultipartS3() : undefined;
  const t = await startTestApp(setup.engine, { ...s3?.env, ...env });
  return {
    ...t,
    driver: setup.storage,
    mediaDir: path.join(t.dataDir, 'media'),
    async close() {
      await t.close();
      await s3?.close();
    },
  };
}

describe.each(setups)('resumable uploads (tus) on $engine, $storage storage', (setup) => {
  let t: LibraryApp;
  let base: string;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await startApp(setup, { MAX_UPLOAD_MB: '6' });
    base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api${resumableUpload.path}`;
    alice = await account(t, 'tusalice');
    bob = await account(t, 'tusbob');
  });
  afterAll(async () => {
    await t?.close();
  });

  const storage = () => t.app.encore.platform.storage;

  async function create(token: string, size: number, fileName = 'noise.wav'): Promise<Response> {
    return fetch(base, {
      method: 'POST',
      headers: { ...TUS, ...bearer(token), 'upload-length': String(size), 'upload-metadata': metadata({ filename: fileName, filetype: 'audio/wav' }) },
    });
  }

  async function begin(token: string, size: number, fileName?: string): Promise<string> {
    const response = await create(token, size, fileName);
    expect(response.status).toBe(201);
    return new URL(response.headers.get('location') ?? '', base).toString();
  }

  function patch(token: string, url: string, offset: number, body: Buffer): Promise<Response> {
    return fetch(url, {
      method: 'PATCH',
      headers: { ...TUS, ...bearer(token), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body,
    });
  }

  async function offsetOf(token: string, url: string): Promise<number> {
    const response = await fetch(url, { method: 'HEAD', headers: { ...TUS, ...bearer(token) } });
    expect(response.status).toBe(200);
    return Number(response.headers.get('upload-offset'));
  }

  /** Sends `bytes` from `from` in PATCHes of `chunk`; returns the last answer. */
  async function sendFrom(token: string, url: string, bytes: Buffer, from: number, chunk: number): Promise<Response> {
    let last: Response | undefined;
    for (let offset = from; offset < bytes.length; offset += chunk) {
      last = await patch(token, url, offset, bytes.subarray(offset, offset + chunk));
      if (offset + chunk < bytes.length) expect(last.status).toBe(204);
    }
    if (!last) throw new Error('nothing to send');
    return last;
  }

  async function songBytes(token: string, songId: number): Promise<Buffer> {
    const play = await t.app.inject({ url: `/api/files/${songId}/play`, headers: bearer(token) });
    expect(play.statusCode).toBe(200);
    return (await fetchUrl(t, play.json<{ url: string }>().url)).body;
  }

  async function keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of storage().list(prefix)) keys.push(object.key);
    return keys;
  }

  /** Nothing of any upload left behind: no staging, no upload key, no song. */
  async function expectNothingKept(): Promise<void> {
    expect(await keysUnder('uploads/')).toEqual([]);
    expect(await keysUnder('songs/')).toEqual([]);
    if (t.driver === 's3') expect(await keysUnder('tus/')).toEqual([]);
    else expect(await fs.readdir(path.join(t.mediaDir, '.tus')).catch(() => [])).toEqual([]);
    const mine = await t.app.inject({ url: '/api/files?owner=true', headers: bearer(alice) });
    expect(mine.json<Song[]>()).toEqual([]);
  }

  it('refuses a user who is not signed in', async () => {
    const response = await fetch(base, { method: 'POST', headers: { ...TUS, 'upload-length': '10' } });
    expect(response.status).toBe(401);
  });

  it('answers 404 for ids that are not upload ids, and 412 without the tus header', async () => {
    for (const id of ['..%2F..%2Fdb', '1-abc', `${'9'.repeat(11)}-${'a'.repeat(32)}`, `1-${'A'.repeat(32)}`, 'walk%07er']) {
      const response = await fetch(`${base}/${id}`, { method: 'HEAD', headers: { ...TUS, ...bearer(alice) } });
      expect(response.status, id).toBe(404);
    }
    const bare = await fetch(base, { method: 'POST', headers: { ...bearer(alice), 'upload-length': '10' } });
    expect(bare.status).toBe(412);
  });

  it('refuses a file over MAX_UPLOAD_MB with the product message, and keeps nothing', async () => {
    const response = await create(alice, 6 * MB + 1);
    expect(response.status).toBe(413);
    expect(JSON.parse(await response.text())).toEqual({ message: 'File is too large. The limit is 6 MB.' });
    await expectNothingKept();
  });

  it('refuses a finished upload that is not audio (415), and keeps nothing', async () => {
    const text = Buffer.from('this is not music at all\n'.repeat(4000));
    const url = await begin(alice, text.length, 'notes.mp3');
    const last = await sendFrom(alice, url, text, 0, 40_000);
    expect(last.status).toBe(415);
    expect(JSON.parse(await last.text())).toMatchObject({ message: expect.stringContaining('Only audio files') });
    await expectNothingKept();
  });

  it("answers 404 for another user's upload, and leaves it alone", async () => {
    const bytes = wav(64 * 1024);
    const url = await begin(alice, bytes.length);
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      const response = await fetch(url, {
        method,
        headers: { ...TUS, ...bearer(bob), ...(method === 'PATCH' ? { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } : {}) },
        ...(method === 'PATCH' ? { body: bytes } : {}),
      });
      expect(response.status, method).toBe(404);
    }
    expect(await offsetOf(alice, url)).toBe(0);
    // The uploader may give it up (termination); then it is gone.
    const gone = await fetch(url, { method: 'DELETE', headers: { ...TUS, ...bearer(alice) } });
    expect(gone.status).toBe(204);
    expect((await fetch(url, { method: 'HEAD', headers: { ...TUS, ...bearer(alice) } })).status).toBe(404);
  });

  it('turns an upload sent in several PATCHes into a song with the same bytes', async () => {
    const bytes = wav(3 * MB);
    const url = await begin(alice, bytes.length, 'Several Parts.wav');
    const last = await sendFrom(alice, url, bytes, 0, 1 * MB);
    expect(last.status).toBe(204);
    const songId = Number(last.headers.get(resumableUpload.songIdHeader));
    expect(songId).toBeGreaterThan(0);
    const song = (await t.app.inject({ url: `/api/files/${songId}`, headers: bearer(alice) })).json<Song>();
    expect(song).toMatchObject({ id: songId, displayName: 'Several Parts', size: bytes.length });
    expect(sha256(await songBytes(alice, songId))).toBe(sha256(bytes));
    // The answer to the last PATCH lost: HEAD says the upload is whole, and which song it became.
    const head = await fetch(url, { method: 'HEAD', headers: { ...TUS, ...bearer(alice) } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(head.headers.get(resumableUpload.songIdHeader)).toBe(String(songId));
    expect(await keysUnder('uploads/')).toEqual([]);
    await t.app.inject({ method: 'DELETE', url: `/api/files/${songId}`, headers: bearer(alice) });
  });

  it('resumes after the connection drops midway, and the song has the original bytes', async () => {
    const bytes = wav(4 * MB);
    const url = await begin(alice, bytes.length, 'Dropped.wav');
    const sent = 2 * MB + 12_345;
    await cutAfter(url, bytes, sent);
    const offset = await expect
      .poll(() => offsetOf(alice, url))
      .toBeGreaterThanOrEqual(0)
      .then(() => offsetOf(alice, url));
    expect(offset).toBeLessThanOrEqual(sent);
    if (t.driver === 'local') expect(offset).toBe(sent); // every byte that reached the disk counts
    const last = await sendFrom(alice, url, bytes, offset, 3 * MB);
    expect(last.status).toBe(204);
    const songId = Number(last.headers.get(resumableUpload.songIdHeader));
    expect(sha256(await songBytes(alice, songId))).toBe(sha256(bytes));
    await t.app.inject({ method: 'DELETE', url: `/api/files/${songId}`, headers: bearer(alice) });
  });

  /**
   * One PATCH of the whole rest whose socket is destroyed once `sent` bytes are written and
   * the server has taken them in: a connection cut midway.
   */
  async function cutAfter(url: string, bytes: Buffer, sent: number): Promise<void> {
    const target = new URL(url);
    const request = http.request(target, {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...bearer(alice),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    const closed = new Promise<void>((resolve) => request.once('close', () => resolve()));
    request.on('error', () => undefined); // the cut itself
    await new Promise<void>((resolve, reject) => request.write(bytes.subarray(0, sent), (error) => (error ? reject(error) : resolve())));
    if (t.driver === 'local') {
      // Wait until the bytes are on the server's disk, so the cut is truly midway.
      const id = target.pathname.split('/').pop() ?? '';
      await expect.poll(async () => (await fs.stat(path.join(t.mediaDir, '.tus', id))).size, { timeout: 5_000 }).toBe(sent);
    }
    request.destroy();
    await closed;
  }

  it('sweeps nothing that is still in time, and expired partial uploads and receipts once expired', async () => {
    const bytes = wav(256 * 1024);
    const url = await begin(alice, bytes.length);
    expect((await patch(alice, url, 0, bytes.subarray(0, 100_000))).status).toBe(204);
    await t.app.encore.modules.internals(libraryModule).resumable.sweep();
    expect(await offsetOf(alice, url)).toBe(100_000);
    // The same staging and receipts as the app's, with an expiry of 1 ms: everything is expired.
    const logger = t.app.log as unknown as Logger; // pino's logger is the platform's Logger
    const staging = createTusStaging(t.config.storage, { storage: storage(), logger, expirationMs: 1, partBytes: resumableUpload.chunkBytes });
    const ingest = t.app.encore.modules.internals(libraryModule).ingest;
    const sweeper = new ResumableUploadService({ ingest, staging, storage: storage(), logger, maxUploadBytes: t.config.maxUploadBytes, expiryMs: 1 });
    await expect
      .poll(async () => {
        await sweeper.sweep();
        return (await fetch(url, { method: 'HEAD', headers: { ...TUS, ...bearer(alice) } })).status;
      })
      .toBe(404);
    await expect.poll(async () => (await sweeper.sweep(), await keysUnder('tus-done/'))).toEqual([]);
    await expectNothingKept();
  });
});
