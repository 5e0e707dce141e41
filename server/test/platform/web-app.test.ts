import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The built web app as Encore serves it: files the build compressed go out compressed to
 * browsers that accept it (brotli first), the same bytes otherwise; every page path gets
 * index.html; hashed assets are cached for good, the page never.
 */
describe('the web app', () => {
  let t: TestApp;
  let webDist: string;
  const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
  const page = `<!doctype html><html><head><title>Encore</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'encore-web-'));
    await mkdir(path.join(webDist, 'assets'));
    const asset = path.join(webDist, 'assets', 'app-1a2b3c.js');
    await writeFile(asset, script);
    await writeFile(`${asset}.br`, brotliCompressSync(script));
    await writeFile(`${asset}.gz`, gzipSync(script));
    await writeFile(path.join(webDist, 'index.html'), page);
    await writeFile(path.join(webDist, 'index.html.br'), brotliCompressSync(page));
    t = await startTestApp('pglite', {}, { webDist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('sends a compressed copy to a browser that takes it, brotli first, and the plain file otherwise', async () => {
    const br = await t.app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBeLessThan(script.length / 4);

    const gz = await t.app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await t.app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers every page path with index.html (compressed when it can), never cached; unknown API paths get JSON 404', async () => {
    for (const url of ['/music', '/playlists/12', '/song2clip']) {
      const response = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const plain = await t.app.inject({ url: '/music' });
    expect(plain.body).toBe(page);
    const api = await t.app.inject({ url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found.' });
  });

  it('sends the security headers with every answer: pages, assets, API answers, 404s and errors', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/music' }),
      t.app.inject({ url: '/assets/app-1a2b3c.js' }),
      t.app.inject({ url: '/api/health' }),
      t.app.inject({ url: '/api/no-such-thing' }),
      t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: '' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 404, 400]);
    for (const answer of answers) {
      const policy = String(answer.headers['content-security-policy']);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' https://accounts.google.com/gsi/client");
      // Radio stations stream from their own sites (issue 41).
      expect(policy).toContain("media-src 'self' blob: http: https:");
      expect(policy).not.toContain('upgrade-insecure-requests');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['cross-origin-embedder-policy']).toBeUndefined();
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });
});
