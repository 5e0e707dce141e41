import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, jobKind, type JobDefinition } from '../../src/platform/jobs/jobs.types.js';
import type { Platform } from '../../src/platform/platform.js';
import { startWorker } from '../../src/worker.js';
import { engines, startTestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

const policy = { retry: { limit: 3, delaySeconds: 1, backoff: false }, expireInSeconds: 60, concurrency: 1 } as const;

async function jobRow(platform: Platform, id: string | null): Promise<{ state: string; retry_count: number; output: unknown } | undefined> {
  const { rows } = await platform.database.executor.executeSql('SELECT state, retry_count, output FROM pgboss.job WHERE id = $1', [id]);
  return rows[0] as { state: string; retry_count: number; output: unknown } | undefined;
}

describe.each(engines)('jobs declared by features on %s', (engine) => {
  it('refuses a bad payload on send, and fails one that reaches a worker at once, without retries', async () => {
    const handled: unknown[] = [];
    const strictKind = jobKind('test.strict', z.object({ count: z.number().int() }));
    const strict = defineJob(strictKind, { ...policy, weight: 'light', handler: async (payload) => void handled.push(payload) });
    const t = await startTestApp(engine, {}, {}, { extraJobs: [strict] });
    try {
      const { jobs } = t.app.encore.platform;
      await expect(jobs.send(strictKind, { count: 'three' } as unknown as { count: number })).rejects.toThrow(/payload of job test\.strict does not match its schema/);
      // A sender on an older schema (or a hand-made row) gets past send: the worker still checks.
      const id = await jobs.send(jobKind('test.strict', z.object({ count: z.string() })), { count: 'three' });
      const row = await until(
        () => jobRow(t.app.encore.platform, id),
        (r) => r?.state === 'failed',
      );
      expect(row?.retry_count).toBe(0);
      expect(JSON.stringify(row?.output)).toContain('does not match its schema');
      await jobs.send(strictKind, { count: 3 });
      await until(async () => handled.length, (n) => n === 1);
      expect(handled).toEqual([{ count: 3 }]);
    } finally {
      await t.close();
    }
  }, 40_000);

  it('never runs two jobs of concurrency 1 at once in a process', async () => {
    let running = 0;
    let most = 0;
    let finished = 0;
    const single = defineJob(jobKind('test.single', z.object({ n: z.number() })), {
      ...policy,
      weight: 'light',
      async handler() {
        running++;
        most = Math.max(most, running);
        await sleep(250);
        running--;
        finished++;
      },
    });
    const t = await startTestApp(engine, {}, {}, { extraJobs: [single] });
    try {
      for (let n = 0; n < 4; n++) await t.app.encore.platform.jobs.send(single, { n });
      await until(async () => finished, (n) => n === 4, 20_000);
      expect(most).toBe(1);
    } finally {
      await t.close();
    }
  }, 40_000);

  it('leaves heavy jobs to worker processes when serving processes take only light ones', async () => {
    const ran: string[] = [];
    const heavyKind = jobKind('test.heavy', z.object({ by: z.string() }));
    const heavy = (processName: string): JobDefinition<{ by: string }> =>
      defineJob(heavyKind, { ...policy, weight: 'heavy', handler: async () => void ran.push(processName) });
    const t = await startTestApp(engine, { WORKER: 'light' }, {}, { extraJobs: [heavy('serving')] });
    let worker: Platform | undefined;
    try {
      const id = await t.app.encore.platform.jobs.send(heavyKind, { by: 'test' });
      await sleep(3000);
      expect(ran).toEqual([]);
      expect((await jobRow(t.app.encore.platform, id))?.state).toBe('created');

      // PGlite is one process's database: the worker takes over the data folder.
      if (engine === 'pglite') await t.app.close();
      worker = await startWorker(t.config, pino({ level: 'silent' }), [heavy('worker')]);
      await until(async () => ran.length, (n) => n === 1);
      expect(ran).toEqual(['worker']);
    } finally {
      await worker?.close();
      await t.close();
    }
  }, 40_000);

  it('brings changed queue settings and schedules up to date on a restart, and rewrites nothing unchanged', async () => {
    const kind = jobKind('test.kept', z.object({}));
    const declared = (limit: number, cron: string) =>
      defineJob(kind, { ...policy, retry: { ...policy.retry, limit }, weight: 'light', schedule: { cron, payload: {} }, handler: async () => undefined });
    const queueRows = async (platform: Platform) =>
      (await platform.database.executor.executeSql('SELECT name, retry_limit, updated_on FROM pgboss.queue ORDER BY name', [])).rows as {
        name: string;
        retry_limit: number;
        updated_on: Date;
      }[];
    const scheduleOf = async (platform: Platform) =>
      ((await platform.database.executor.executeSql('SELECT cron FROM pgboss.schedule WHERE name = $1', [kind.name])).rows[0] as { cron: string } | undefined)?.cron;
    const t = await startTestApp(engine, {}, {}, { extraJobs: [declared(3, '0 * * * *')] });
    let worker: Platform | undefined;
    try {
      const before = await queueRows(t.app.encore.platform);
      expect(before.find((row) => row.name === kind.name)?.retry_limit).toBe(3);
      expect(await scheduleOf(t.app.encore.platform)).toBe('0 * * * *');
      if (engine === 'pglite') await t.app.close();
      worker = await startWorker(t.config, pino({ level: 'silent' }), [declared(5, '*/5 * * * *')]);
      const after = await queueRows(worker);
      expect(after.find((row) => row.name === kind.name)?.retry_limit).toBe(5);
      expect(await scheduleOf(worker)).toBe('*/5 * * * *');
      // Every other queue was declared as before: left alone.
      const untouched = (rows: typeof before) => rows.filter((row) => row.name !== kind.name).map((row) => [row.name, row.retry_limit, new Date(row.updated_on).getTime()]);
      expect(untouched(after)).toEqual(untouched(before));
      expect(untouched(after).length).toBeGreaterThan(3);
    } finally {
      await worker?.close();
      await t.close();
    }
  }, 40_000);
});
