import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, jobKind } from '../../src/platform/jobs/jobs.types.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

const TOKEN = 'metrics-token-of-the-test';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The value of one series in Prometheus' text format, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(engines)('metrics and request ids on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const waitKind = jobKind('test.metrics-wait', z.object({}));
  const waiting = defineJob(waitKind, {
    retry: { limit: 0, delaySeconds: 1, backoff: false },
    expireInSeconds: 60,
    concurrency: 1,
    weight: 'light',
    handler: async () => {
      markStarted();
      await held;
    },
  });

  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp(engine, { METRICS_TOKEN: TOKEN, METRICS_PORT: String(port) }, {}, { extraJobs: [waiting] });
  }, 120_000);
  afterAll(async () => {
    release();
    await t?.close();
  });

  const scrape = async () => {
    const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('answers 401 without the token or with a wrong one', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all-no' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Authentication required.' });
  });

  it('counts requests by route pattern and status, with durations, and serves the process figures', async () => {
    // Health is 503 while a check is slow on a loaded machine: counted under whichever status it got.
    const countOf = async (status: string) => sample(await scrape(), 'encore_http_requests_total', { route: '/api/health', status }) ?? 0;
    const health = await t.app.inject({ url: '/api/health' });
    const status = String(health.statusCode);
    const before = (await countOf(status)) - 1;
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(health.statusCode);
    expect((await t.app.inject({ url: '/api/files/12345/like', method: 'POST' })).statusCode).toBe(401);
    const text = await scrape();
    expect(sample(text, 'encore_http_requests_total', { route: '/api/health', status })).toBe(before + 2);
    // The pattern, never the id: one series per route, not per song.
    expect(sample(text, 'encore_http_requests_total', { route: '/api/files/:id/like', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/files/12345/like');
    expect(sample(text, 'encore_http_request_duration_seconds_count', { route: '/api/health', status })).toBe(before + 2);
    for (const family of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'encore_ffmpeg_processes_running',
      'encore_storage_bytes',
      'encore_music_scan_running',
    ])
      expect(sample(text, family), family).toBeTypeOf('number');
  });

  it('shows the job queues by kind and state, moving as a job runs', async () => {
    const idle = await scrape();
    expect(sample(idle, 'encore_jobs', { queue: 'test.metrics-wait', state: 'active' })).toBe(0);
    await t.app.encore.platform.jobs.send(waitKind, {});
    await started;
    expect(sample(await scrape(), 'encore_jobs', { queue: 'test.metrics-wait', state: 'active' })).toBe(1);
    release();
    for (;;) {
      if (sample(await scrape(), 'encore_jobs', { queue: 'test.metrics-wait', state: 'active' }) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('serves the same metrics without a token on METRICS_PORT of 127.0.0.1 only', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('encore_http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });

  it('gives every answer its request id: a plain X-Request-Id carries through, anything else gets a UUID', async () => {
    const fresh = await t.app.inject({ url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const other = await t.app.inject({ url: '/api/health' });
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    expect((await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'proxy-id-42' } })).headers['x-request-id']).toBe('proxy-id-42');
    const injected = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'bad id\n{"level":60}' } });
    expect(injected.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metrics off', () => {
  it('has no /metrics without METRICS_TOKEN', async () => {
    const t = await startTestApp('pglite');
    try {
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  }, 120_000);
});
