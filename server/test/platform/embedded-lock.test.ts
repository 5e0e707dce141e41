import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('one process per embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => t?.close());

  it('a second Encore on the same DATA_DIR stops with a message, and the first goes on', async () => {
    await expect(startTestApp('pglite', { DATA_DIR: t.dataDir })).rejects.toThrow(
      `is open in another Encore (process ${process.pid}). Stop it first, or use PostgreSQL (DATABASE_URL) to run several processes.`,
    );
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.json()).toMatchObject({ database: { status: 'ok' } });
  });
});
