import fs from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_CLIP_UPLOADS } from '../../src/features/clips/clips.service.js';
import { TOO_MANY_UPLOADS, UPLOAD_TOO_SLOW } from '../../src/platform/storage/local-storage.routes.js';
import { account, localSetups, presign, startLibraryApp, type LibraryApp } from '../library/library-test-kit.js';
import { clipsModule } from '../../src/features/clips/clips.module.js';
import { eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';

/** What came back on a raw connection, and when the server closed it. */
interface RawExchange {
  response: string;
  closedAfterMs: number;
}

/**
 * Speaks HTTP over a bare socket, the way a slow or stalled client does: the head, then body
 * chunks `everyMs` apart, then nothing. Resolves when the server closes the connection (or
 * after `giveUpMs`, with closedAfterMs = Infinity).
 */
function rawRequest(port: number, head: string, chunks: string[], everyMs: number, giveUpMs = 8000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedAfterMs: number) => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ response, closedAfterMs });
    };
    const giveUp = setTimeout(() => finish(Number.POSITIVE_INFINITY), giveUpMs);
    socket.on('data', (data) => (response += data.toString()));
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => undefined);
    socket.write(head.replace(/\n/g, '\r\n') + '\r\n\r\n');
    const queue = [...chunks];
    const next = () => {
      const chunk = queue.shift();
      if (chunk === undefined || socket.destroyed) return;
      socket.write(chunk);
      timer = setTimeout(next, everyMs);
    };
    next();
  });
}

async function tempFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.tmp')).map((entry) => path.join(entry.parentPath, entry.name));
}

describe.each(localSetups)('slow and stalled clients on $engine', (setup) => {
  let t: LibraryApp;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await startLibraryApp(setup, { REQUEST_TIMEOUT_SECONDS: '1', UPLOAD_STALL_SECONDS: '1', UPLOADS_PER_USER: '2', MAX_UPLOAD_MB: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    token = await account(t, 'slowpoke');
  });
  afterAll(async () => t?.close());

  const putHead = (url: string, length: number) => {
    const { pathname, search } = new URL(url, 'http://encore.test');
    return `PUT ${pathname}${search} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: audio/mpeg\nContent-Length: ${length}`;
  };

  it('cuts off an upload that stops sending, leaving no temp file and no object', async () => {
    const { url, key } = await presign(t, token, 'stalled.mp3', 'audio/mpeg');
    const exchange = await rawRequest(port, putHead(url, 500_000), ['ID3', 'a few bytes'], 100);
    expect(exchange.closedAfterMs).toBeLessThan(5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.response).toContain(JSON.stringify({ message: UPLOAD_TOO_SLOW }));
    expect(await tempFiles(t.mediaDir)).toEqual([]);
    expect(await t.app.encore.platform.storage.stat(key)).toBeNull();
  });

  it('answers 429 to uploads over the per-user cap, and takes uploads again once they end', async () => {
    const links = await Promise.all([1, 2, 3].map((n) => presign(t, token, `cap-${n}.mp3`, 'audio/mpeg')));
    const [first, second, third] = links.map((link) => link.url) as [string, string, string];
    const stalled = [rawRequest(port, putHead(first, 500_000), ['ID3'], 100), rawRequest(port, putHead(second, 500_000), ['ID3'], 100)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await rawRequest(port, putHead(third, 500_000), ['ID3'], 100);
    expect(refused.response).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.response).toContain(JSON.stringify({ message: TOO_MANY_UPLOADS }));
    expect(refused.closedAfterMs).toBeLessThan(1000);
    for (const exchange of await Promise.all(stalled)) {
      expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
      expect(exchange.closedAfterMs).toBeLessThan(5000);
    }

    const body = 'x'.repeat(64);
    const accepted = await rawRequest(port, `${putHead(third, body.length)}\nConnection: close`, [body], 10);
    expect(accepted.response).toMatch(/^HTTP\/1\.1 200 /);
    expect(await tempFiles(t.mediaDir)).toEqual([]);
  });

  const clipHead = (length: number) =>
    `POST /api/clips/create-clip HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${token}\nContent-Type: multipart/form-data; boundary=xyz\nContent-Length: ${length}`;
  const clipPart = '--xyz\r\nContent-Disposition: form-data; name="mediaFiles"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';

  it('cuts off a create-clip body that sends nothing at all, or stops before its closing boundary (408)', async () => {
    const silent = await rawRequest(port, clipHead(500_000), [], 100);
    expect(silent.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(silent.response).toContain(JSON.stringify({ message: UPLOAD_TOO_SLOW }));
    const unfinished = await rawRequest(port, clipHead(500_000), [clipPart, 'more bytes'], 100);
    expect(unfinished.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(unfinished.response).toContain(JSON.stringify({ message: UPLOAD_TOO_SLOW }));
  });

  it('answers 429 (with Retry-After) to create-clip uploads over the per-user cap, and takes them again once they end', async () => {
    const clips = t.app.encore.modules.internals(clipsModule).clips;
    const [user] = await t.app.encore.platform.database.db.select().from(users).where(eq(users.userName, 'slowpoke'));
    const userId = user?.id ?? 0;
    // Uploads cut off before (the test above) are counted out once their handler ends.
    await expect.poll(() => clips.uploadsInFlight(userId)).toBe(0);
    const stalled = [rawRequest(port, clipHead(500_000), [clipPart], 100), rawRequest(port, clipHead(500_000), [clipPart], 100)];
    await expect.poll(() => clips.uploadsInFlight(userId)).toBe(2);
    const refused = await rawRequest(port, clipHead(500_000), [clipPart], 100);
    expect(refused.response).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.response).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(refused.response).toContain(JSON.stringify({ message: TOO_MANY_CLIP_UPLOADS }));
    for (const exchange of await Promise.all(stalled)) expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
    await expect.poll(() => clips.uploadsInFlight(userId)).toBe(0);
    const again = await rawRequest(port, `${clipHead(clipPart.length + 12)}\nConnection: close`, [`${clipPart}\r\n--xyz--\r\n`], 10);
    expect(again.response).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('cuts off a slow unauthenticated body on an ordinary route', async () => {
    const payload = JSON.stringify({ userName: 'slowpoke', password: 'x'.repeat(200) });
    const head = `POST /api/auth/signin HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: ${payload.length}`;
    // One byte every 200 ms: never idle, just far too slow.
    const exchange = await rawRequest(port, head, payload.split(''), 200);
    expect(exchange.closedAfterMs).toBeLessThan(3000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still serves ordinary requests that arrive in time', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
  });
});
