import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workerPoll } from '../../src/platform/jobs/jobs.js';
import { defineJob, jobKind, type JobDefinition } from '../../src/platform/jobs/jobs.types.js';
import type { Platform } from '../../src/platform/platform.js';
import { startWorker } from '../../src/worker.js';
import { engines, startTestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `done` holds, however long a busy machine takes: the test's time limit is the only clock. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
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
      await expect(jobs.send(strictKind, { count: 'three' } as unknown as { count: number })).rejects.toThrow(
        /payload of job test\.strict does not match its schema/,
      );
      // A sender on an older schema (or a hand-made row) gets past send: the worker still checks.
      const id = await jobs.send(jobKind('test.strict', z.object({ count: z.string() })), { count: 'three' });
      const row = await until(
        () => jobRow(t.app.encore.platform, id),
        (r) => r?.state === 'failed',
      );
      expect(row?.retry_count).toBe(0);
      expect(JSON.stringify(row?.output)).toContain('does not match its schema');
      await jobs.send(strictKind, { count: 3 });
      await until(
        async () => handled.length,
        (n) => n === 1,
      );
      expect(handled).toEqual([{ count: 3 }]);
    } finally {
      await t.close();
    }
  });

  it('keeps at most one catch-up job waiting and one running, however often it is sent', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const catchUpKind = jobKind('test.catch-up', z.object({}));
    const catchUp = defineJob(catchUpKind, {
      ...policy,
      weight: 'light',
      catchUp: true,
      handler: async () => {
        runs += 1;
        if (runs === 1) await released;
      },
    });
    const t = await startTestApp(engine, {}, {}, { extraJobs: [catchUp] });
    try {
      const { jobs } = t.app.encore.platform;
      const states = async () =>
        (
          (await t.app.encore.platform.database.executor.executeSql('SELECT state FROM pgboss.job WHERE name = $1 ORDER BY created_on', [catchUpKind.name]))
            .rows as { state: string }[]
        ).map((row) => row.state);
      const first = await jobs.send(catchUpKind, {}, { singletonKey: 'catch-up' });
      expect(first).not.toBeNull();
      await until(states, (list) => list.includes('active'));
      // One running: the next send waits, the ones after it add nothing.
      expect(await jobs.send(catchUpKind, {}, { singletonKey: 'catch-up' })).not.toBeNull();
      expect(await jobs.send(catchUpKind, {}, { singletonKey: 'catch-up' })).toBeNull();
      expect(await jobs.send(catchUpKind, {}, { singletonKey: 'catch-up' })).toBeNull();
      expect((await states()).sort()).toEqual(['active', 'created']);
      release();
      await until(states, (list) => list.length === 2 && list.every((state) => state === 'completed'));
      expect(runs).toBe(2);
    } finally {
      release();
      await t.close();
    }
  });

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
      await until(
        async () => finished,
        (n) => n === 4,
      );
      expect(most).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('leaves heavy jobs to worker processes when serving processes take only light ones', async () => {
    const ran: string[] = [];
    const heavyKind = jobKind('test.heavy', z.object({ by: z.string() }));
    const heavy = (processName: string): JobDefinition<{ by: string }> =>
      defineJob(heavyKind, { ...policy, weight: 'heavy', handler: async () => void ran.push(processName) });
    const lightKind = jobKind('test.light', z.object({}));
    let lightRan = 0;
    const light = defineJob(lightKind, { ...policy, weight: 'light', handler: async () => void lightRan++ });
    const t = await startTestApp(engine, { WORKER: 'light' }, {}, { extraJobs: [heavy('serving'), light] });
    let worker: Platform | undefined;
    try {
      const id = await t.app.encore.platform.jobs.send(heavyKind, { by: 'test' });
      // A light job sent after it is worked here: a worker of the heavy queue, had this process
      // one, was woken by its send first and would have taken it by then.
      await t.app.encore.platform.jobs.send(lightKind, {});
      await until(
        async () => lightRan,
        (n) => n === 1,
      );
      await t.app.encore.platform.jobs.idle();
      expect(ran).toEqual([]);
      expect((await jobRow(t.app.encore.platform, id))?.state).toBe('created');

      // PGlite is one process's database: the worker takes over the data folder.
      if (engine === 'pglite') await t.app.close();
      worker = await startWorker(t.config, pino({ level: 'silent' }), [heavy('worker')]);
      await until(
        async () => ran.length,
        (n) => n === 1,
      );
      expect(ran).toEqual(['worker']);
    } finally {
      await worker?.close();
      await t.close();
    }
  });

  it('brings changed queue settings and schedules up to date on a restart, rewrites nothing unchanged, and drops schedules pg-boss kept', async () => {
    const kind = jobKind('test.kept', z.object({}));
    const declared = (limit: number, cron: string) =>
      defineJob(kind, { ...policy, retry: { ...policy.retry, limit }, weight: 'light', schedule: { cron, payload: {} }, handler: async () => undefined });
    const queueRows = async (platform: Platform) =>
      (await platform.database.executor.executeSql('SELECT name, retry_limit, updated_on FROM pgboss.queue ORDER BY name', [])).rows as {
        name: string;
        retry_limit: number;
        updated_on: Date;
      }[];
    const scheduleOf = (platform: Platform) => platform.jobs.schedules().find((schedule) => schedule.name === kind.name);
    const nextHour = (ms: number) => new Date(Math.floor(ms / 3600_000 + 1) * 3600_000);
    const startedAt = Date.now();
    const t = await startTestApp(engine, {}, {}, { extraJobs: [declared(3, '0 * * * *')] });
    let worker: Platform | undefined;
    try {
      const before = await queueRows(t.app.encore.platform);
      expect(before.find((row) => row.name === kind.name)?.retry_limit).toBe(3);
      // The next hour as of the start, or of now when an hour began in between.
      expect(scheduleOf(t.app.encore.platform)).toEqual({ name: kind.name, cron: '0 * * * *', next: expect.any(Date) });
      expect([nextHour(startedAt).getTime(), nextHour(Date.now()).getTime()]).toContain(scheduleOf(t.app.encore.platform)?.next.getTime());
      // What an earlier Encore left to pg-boss's cron.
      await t.app.encore.platform.database.executor.executeSql(
        `INSERT INTO pgboss.schedule (name, cron, timezone, data, options) VALUES ($1, '0 * * * *', 'UTC', '{}', '{}')`,
        [kind.name],
      );
      if (engine === 'pglite') await t.app.close();
      worker = await startWorker(t.config, pino({ level: 'silent' }), [declared(5, '*/5 * * * *')]);
      const after = await queueRows(worker);
      expect(after.find((row) => row.name === kind.name)?.retry_limit).toBe(5);
      expect(scheduleOf(worker)?.cron).toBe('*/5 * * * *');
      expect((await worker.database.executor.executeSql('SELECT name FROM pgboss.schedule', [])).rows).toEqual([]);
      // Every other queue was declared as before: left alone.
      const untouched = (rows: typeof before) =>
        rows.filter((row) => row.name !== kind.name).map((row) => [row.name, row.retry_limit, new Date(row.updated_on).getTime()]);
      expect(untouched(after)).toEqual(untouched(before));
      expect(untouched(after).length).toBeGreaterThan(3);
    } finally {
      await worker?.close();
      await t.close();
    }
  });

  it('sends a scheduled run once a minute, however many processes keep the schedule, and the run is worked', async () => {
    const ran: number[] = [];
    const kind = jobKind('test.scheduled', z.object({ n: z.number() }));
    const declared = defineJob(kind, {
      ...policy,
      weight: 'light',
      schedule: { cron: '* * * * *', payload: { n: 7 } },
      handler: async (payload) => void ran.push(payload.n),
    });
    const t = await startTestApp(engine, {}, {}, { extraJobs: [declared] });
    let worker: Platform | undefined;
    try {
      // Both processes ask within one minute of the database's clock.
      while (new Date().getUTCSeconds() > 50) await sleep(1000);
      const processes = [t.app.encore.platform];
      if (engine === 'postgres') processes.push((worker = await startWorker(t.config, pino({ level: 'silent' }), [declared])));
      const ids = [];
      for (const platform of processes) for (let i = 0; i < 2; i++) ids.push(await platform.jobs.runSchedule(kind.name));
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
      await until(
        async () => ran,
        (list) => list.length === 1,
      );
      // One run was sent in all, so no second one can follow.
      const sent = await t.app.encore.platform.database.executor.executeSql('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [kind.name]);
      expect(sent.rows).toEqual([{ n: 1 }]);
      expect(ran).toEqual([7]);
      await expect(t.app.encore.platform.jobs.runSchedule('mail.send')).rejects.toThrow(/has no schedule/);
    } finally {
      await worker?.close();
      await t.close();
    }
  });

  it('wakes workers when there is work instead of waiting for their poll: a job from another process, the next job, a retry', async () => {
    const ran: string[] = [];
    let failures = 0;
    const kind = jobKind('test.prompt', z.object({ label: z.string() }));
    const declared = defineJob(kind, {
      ...policy,
      weight: 'heavy',
      async handler({ label }) {
        if (label === 'flaky' && failures++ === 0) throw new Error('first attempt fails');
        ran.push(label);
      },
    });
    // A serving process that leaves heavy jobs to a worker process, as when scaled out.
    const t = await startTestApp(engine, { WORKER: 'light' }, {}, { extraJobs: [declared] });
    let worker: Platform | undefined;
    // The worker's idle poll is an hour: whatever it runs within the test, a wake-up found.
    const idlePoll = workerPoll.idleSeconds;
    workerPoll.idleSeconds = 3600;
    try {
      const sender = engine === 'postgres' ? t.app.encore.platform : undefined;
      if (engine === 'pglite') await t.app.close();
      worker = await startWorker(t.config, pino({ level: 'silent' }), [declared]);
      const jobs = (sender ?? worker).jobs;
      await jobs.send(kind, { label: 'one' });
      await until(
        async () => ran.length,
        (n) => n === 1,
      );
      await jobs.send(kind, { label: 'two' });
      await jobs.send(kind, { label: 'three' });
      await until(
        async () => ran.length,
        (n) => n === 3,
      );
      // A retry 1 s after its failure (policy.retry.delaySeconds).
      await jobs.send(kind, { label: 'flaky' });
      await until(
        async () => ran.length,
        (n) => n === 4,
      );
      expect(ran).toEqual(['one', 'two', 'three', 'flaky']);
    } finally {
      workerPoll.idleSeconds = idlePoll;
      await worker?.close();
      await t.close();
    }
  });
});
