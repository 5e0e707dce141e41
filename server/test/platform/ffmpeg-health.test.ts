import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/platform/logger.js';
import { createFfmpeg } from '../../src/platform/media/ffmpeg.js';
import { locateFfmpeg } from '../../src/platform/media/ffmpeg.locate.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

/** The ffmpeg entry of /api/health: where the binary came from, its version, what it lacks. */
describe('ffmpeg health', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it("reports the system's ffmpeg, lacking nothing", async () => {
    const health = await createFfmpeg({ dataDir: os.tmpdir(), logger: quiet }).health();
    expect(health).toMatchObject({ status: 'ok', driver: 'ffmpeg', source: 'system', lacks: [] });
    expect(health.version).toMatch(/^\d+\.\d+/);
  });

  it('stays ok with an ffmpeg that lacks optional filters, and says which', async () => {
    const bundled = await locateFfmpeg({ dataDir: os.tmpdir(), choices: ['bundled'] });
    const health = await createFfmpeg({ dataDir: os.tmpdir(), configuredPath: bundled.path, logger: quiet }).health();
    expect(health).toEqual({ status: 'ok', driver: 'ffmpeg', source: 'configured', version: 'N-47683-g0e8eb07980-static', lacks: ['xfade'] });
  });

  it('makes /api/health degraded when FFMPEG_PATH names no ffmpeg', async () => {
    t = await startTestApp('pglite', { FFMPEG_PATH: '/nonexistent/ffmpeg' });
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({
      status: 'degraded',
      database: { status: 'ok' },
      ffmpeg: { status: 'error', driver: 'ffmpeg', detail: 'FFMPEG_PATH does not name an executable file' },
    });
    expect(health.json<{ ffmpeg: { lacks: string[] } }>().ffmpeg.lacks).toEqual(['xfade', 'subtitles', 'ass', 'libx264', 'libvpx-vp9', 'libopus']);
  });
});
