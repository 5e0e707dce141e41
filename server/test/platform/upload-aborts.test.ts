import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resumableUpload } from '@encore/common/library.contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp } from '../support/test-app.js';
import { account, bearer, presign, type LibraryApp, type Setup } from '../library/library-test-kit.js';
import { startMultipartS3 } from '../library/s3-multipart-loopback.js';

/**
 * Issue 37, item 1: no client behaviour may end the server. Clients reset their connections at
 * every stage of every upload path (signed PUT, tus PATCH, create-clip multipart; local and S3
 * storage), many at once; the server must go on answering, and keep no partial file or object.
 * An unhandled 'error' event would end this test process (and so fail the run).
 */

const MB = 1024 * 1024;
/**
 * How many connections each stage resets at once: the review's reproduction used ~24. s3rver,
 * the S3 of these tests, takes seconds per tus upload on a loaded machine: 8 there.
 */
const atOnce = (storage: Setup['storage']) => (storage === 's3' ? 8 : 24);

type Stage = 'in the head' | 'mid body' | 'after the body';
const STAGES: Stage[] = ['in the head', 'mid body', 'after the body'];

/**
 * Opens a raw connection, writes the request up to `stage` (the body declared `declared` bytes
 * long, `sent` of them written mid body), then resets the connection (RST, as a crashed or
 * killed client does) once the bytes have left.
 */
function resetAt(port: number, head: string, body: Buffer, stage: Stage): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    const fullHead = Buffer.from(head.replace(/\n/g, '\r\n') + '\r\n\r\n');
    const bytes =
      stage === 'in the head'
        ? fullHead.subarray(0, Math.floor(fullHead.length * 0.8))
        : stage === 'mid body'
          ? Buffer.concat([fullHead, body.subarray(0, 2048)])
          : Buffer.concat([fullHead, body]);
    socket.on('connect', () => {
      socket.write(bytes, () => {
        // A beat later for some: the server is then somewhere else in its handling.
        setImmediate(() => socket.resetAndDestroy());
      });
    });
  });
}

async function resetMany(port: number, heads: string[], body: Buffer, stage: Stage): Promise<void> {
  await Promise.all(heads.map((head) => resetAt(port, head, body, stage)));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

const setups: Setup[] = [...engines.map((engine) => ({ engine, storage: 'local' as const })), { engine: 'pglite', storage: 's3' }];

describe.each(setups)('clients that reset their uploads on $engine, $storage storage', { timeout: 180_000 }, (setup) => {
  let t: LibraryApp;
  let port: number;
  let token: string;
  let tmp: string;
  const previousTmp = process.env['TMPDIR'];

  beforeAll(async () => {
    // Spools (S3 uploads, create-clip bodies) go below os.tmpdir(): a folder of this test's own.
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-upload-aborts-'));
    const s3 = setup.storage === 's3' ? await startMultipartS3() : undefined;
    const app = await startTestApp(setup.engine, { ...s3?.env, MAX_UPLOAD_MB: '6', UPLOADS_PER_USER: '48' });
    process.env['TMPDIR'] = tmp;
    t = {
      ...app,
      driver: setup.storage,
      mediaDir: path.join(app.dataDir, 'media'),
      async close() {
        await app.close();
        await s3?.close();
      },
    };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    token = await account(t, 'resetter');
  });
  afterAll(async () => {
    if (previousTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previousTmp;
    await t?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  async function expectServing(): Promise<void> {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
  }

  /** No spool of an upload is left in the temp folder once every handler has ended. */
  async function expectNoSpools(): Promise<void> {
    await expect.poll(async () => await filesUnder(tmp), { timeout: 10_000 }).toEqual([]);
  }

  const body = Buffer.alloc(5 * MB, 7);

  // With S3, browsers PUT to S3 itself: no Encore route takes those bytes.
  it.skipIf(setup.storage === 's3').each(STAGES)('signed PUT: connections reset %s leave the server serving and keep nothing', async (stage) => {
    const links = await Promise.all(Array.from({ length: atOnce(setup.storage) }, (_, n) => presign(t, token, `reset-${n}.mp3`, 'audio/mpeg')));
    const heads = links.map(({ url }) => {
      const { pathname, search } = new URL(url, 'http://encore.test');
      return `PUT ${pathname}${search} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: audio/mpeg\nContent-Length: ${body.length}`;
    });
    await resetMany(port, heads, body, stage);
    await expectServing();
    // Every handler ends: no temp file, and no object at any key (a whole body that arrived
    // before its reset may be stored: its client may still complete the upload).
    await expect.poll(async () => (await filesUnder(t.mediaDir)).filter((name) => name.endsWith('.tmp')), { timeout: 10_000 }).toEqual([]);
    if (stage !== 'after the body') {
      for (const { key } of links) expect(await t.app.encore.platform.storage.stat(key)).toBeNull();
    }
    await expectNoSpools();
  });

  it.each(STAGES)('tus PATCH: connections reset %s leave the server serving and each upload at a sound offset', async (stage) => {
    const base = `http://127.0.0.1:${port}/api${resumableUpload.path}`;
    const tus = { 'tus-resumable': '1.0.0', ...bearer(token) };
    const urls = await Promise.all(
      Array.from({ length: atOnce(setup.storage) }, async (_, n) => {
        const created = await fetch(base, {
          method: 'POST',
          headers: { ...tus, 'upload-length': String(body.length), 'upload-metadata': `filename ${Buffer.from(`tus-${n}.wav`).toString('base64')}` },
        });
        expect(created.status).toBe(201);
        return new URL(created.headers.get('location') ?? '', base);
      }),
    );
    const heads = urls.map(
      (url) =>
        `PATCH ${url.pathname} HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${token}\nTus-Resumable: 1.0.0\nUpload-Offset: 0\n` +
        `Content-Type: application/offset+octet-stream\nContent-Length: ${body.length}`,
    );
    await resetMany(port, heads, body, stage);
    await expectServing();
    for (const url of urls) {
      // Each upload is still there, at an offset no further than the bytes sent...
      const head = await expect
        .poll(async () => (await fetch(url, { method: 'HEAD', headers: tus })).status, { timeout: 10_000 })
        .toBe(200)
        .then(() => fetch(url, { method: 'HEAD', headers: tus }));
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(body.length);
      // ...and can be given up, leaving nothing.
      expect((await fetch(url, { method: 'DELETE', headers: tus })).status).toBe(204);
    }
    if (setup.storage === 'local') await expect.poll(() => filesUnder(path.join(t.mediaDir, '.tus')), { timeout: 10_000 }).toEqual([]);
    await expectNoSpools();
  });

  it.each(STAGES)('create-clip multipart: connections reset %s leave the server serving and keep no spool', async (stage) => {
    const part = Buffer.concat([
      Buffer.from('--xyz\r\nContent-Disposition: form-data; name="mediaFiles"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG'),
      body.subarray(0, 1 * MB),
      Buffer.from('\r\n--xyz--\r\n'),
    ]);
    const head = `POST /api/clips/create-clip HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${token}\nContent-Type: multipart/form-data; boundary=xyz\nContent-Length: ${part.length}`;
    await resetMany(
      port,
      Array.from({ length: atOnce(setup.storage) }, () => head),
      part,
      stage,
    );
    await expectServing();
    await expectNoSpools();
  });
});
