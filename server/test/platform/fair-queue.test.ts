import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { users } from '../../src/features/auth/auth.schema.js';
import { TooManyRequestsError } from '../../src/platform/errors/app-errors.js';
import { defineJob, jobKind } from '../../src/platform/jobs/jobs.types.js';
import type { Platform } from '../../src/platform/platform.js';
import type { TaskRecord } from '../../src/platform/tasks/task.store.js';
import { startWorker } from '../../src/worker.js';
import { account } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Fair queues (issue 29) on the real pg-boss queue: owners take turns, whoever queued more; and a
 * per-owner limit of live tasks holds for requests at once.
 */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Names of the jobs in the order their handlers began; a job named in `held` waits for its gate. */
const started: string[] = [];
const held = new Map<string, () => void>();
/** Set at the end: nothing holds any more (a job still queued would hold up the app's close). */
let releaseAll = false;
const gate = (name: string) => new Promise<void>((resolve) => held.set(name, resolve));

const fairKind = jobKind('test.fair', z.object({ name: z.string(), hold: z.boolean() }));
const fair = defineJob(fairKind, {
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  concurrency: 1,
  weight: 'light',
  fair: true,
  async handler(payload) {
    started.push(payload.name);
    if (payload.hold && !releaseAll) await gate(payload.name);
  },
});
/** The same, oldest first: what a queue does without `fair`. */
const plainKind = jobKind('test.plain', z.object({ name: z.string(), hold: z.boolean() }));
const plain = defineJob(plainKind, { ...fair, ...plainKind, fair: false });

describe.each(engines)('fair queues on %s', (engine) => {
  let t: TestApp;
  const ids: Record<'alice' | 'bob' | 'carol', number> = { alice: 0, bob: 0, carol: 0 };

  beforeAll(async () => {
    releaseAll = false;
    t = await startTestApp(engine, {}, {}, { extraJobs: [fair, plain] });
    for (const name of ['alice', 'bob', 'carol'] as const) await account(t, name);
    const rows = await t.app.encore.platform.database.db.select().from(users);
    for (const name of ['alice', 'bob', 'carol'] as const) ids[name] = rows.find((user) => user.userName === name)?.id ?? 0;
  });
  afterAll(async () => {
    releaseAll = true;
    for (const release of held.values()) release();
    await t?.close();
  });

  const start = (kind: typeof fairKind, owner: keyof typeof ids, name: string, hold = false) =>
    t.app.encore.platform.tasks.start({ kind: kind.name, ownerId: ids[owner], job: kind, payload: { name: `${engine}:${name}`, hold } });
  const ours = () => started.filter((name) => name.startsWith(`${engine}:`)).map((name) => name.slice(engine.length + 1));

  it("takes owners in turn: Alice's ten jobs do not delay Bob's one, nor Carol's two", async () => {
    const { tasks } = t.app.encore.platform;
    // Alice's first job runs (and holds the only slot) while the rest are queued.
    await start(fairKind, 'alice', 'a0', true);
    await until(ours, (names) => names.includes('a0'));
    const queued: Record<string, TaskRecord> = {};
    for (let n = 1; n <= 9; n++) queued[`a${n}`] = await start(fairKind, 'alice', `a${n}`);
    queued['b0'] = await start(fairKind, 'bob', 'b0');
    queued['c0'] = await start(fairKind, 'carol', 'c0');
    queued['c1'] = await start(fairKind, 'carol', 'c1');

    // Each waiting task says how many run or go before it: Bob's first only waits for the running one.
    const ahead = async (name: string) => tasks.queuedAhead((queued[name] as TaskRecord).id);
    expect(await ahead('b0')).toBe(1);
    expect(await ahead('c0')).toBe(2);
    expect(await ahead('a1')).toBe(3);
    expect(await ahead('c1')).toBe(4);
    expect(await ahead('a9')).toBe(12);

    held.get(`${engine}:a0`)?.();
    await until(ours, (names) => names.length === 13);
    expect(ours()).toEqual(['a0', 'b0', 'c0', 'a1', 'c1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    await t.app.encore.platform.jobs.idle();
  });

  it('a newcomer goes to the front of a queue an owner has filled, and a queue without `fair` stays oldest first', async () => {
    await start(fairKind, 'alice', 'x0', true);
    await until(ours, (names) => names.includes('x0'));
    for (let n = 1; n <= 3; n++) await start(fairKind, 'alice', `x${n}`);
    // Bob queued earlier (his last job is long done): he is not held back by his past.
    await start(fairKind, 'bob', 'y0');
    held.get(`${engine}:x0`)?.();
    await until(ours, (names) => names.includes('x3'));
    const fairOrder = ours().slice(ours().indexOf('x0'));
    expect(fairOrder).toEqual(['x0', 'y0', 'x1', 'x2', 'x3']);

    await start(plainKind, 'alice', 'p0', true);
    await until(ours, (names) => names.includes('p0'));
    for (let n = 1; n <= 3; n++) await start(plainKind, 'alice', `p${n}`);
    await start(plainKind, 'bob', 'q0');
    held.get(`${engine}:p0`)?.();
    await until(ours, (names) => names.includes('q0'));
    expect(ours().slice(ours().indexOf('p0'))).toEqual(['p0', 'p1', 'p2', 'p3', 'q0']);
    await t.app.encore.platform.jobs.idle();
  });

  it('lets an owner have at most `max` live tasks of a kind, however many ask at once; an ended one frees its place', async () => {
    const { tasks } = t.app.encore.platform;
    // Alice's job holds the only slot: the tasks asked for below stay queued (live) until the end.
    await start(fairKind, 'alice', 'z0', true);
    await until(ours, (names) => names.includes('z0'));
    const limit = { max: 2, message: 'Two at most.', retryAfterSeconds: 30 };
    const kind = `limited-${engine}`;
    const ask = (owner: keyof typeof ids, name: string) =>
      tasks.start({ kind, ownerId: ids[owner], job: fairKind, payload: { name: `${engine}:${name}`, hold: false }, limit });
    const outcomes = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => ask('carol', `l${n}`)));
    const accepted = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(accepted).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const error of refused) {
      expect(error).toBeInstanceOf(TooManyRequestsError);
      expect(error).toMatchObject({ message: 'Two at most.', retryAfterSeconds: 30 });
    }
    // The refusals left no task behind; another owner has places of their own.
    const count = async () => {
      const { rows } = await t.app.encore.platform.database.executor.executeSql('SELECT count(*)::int AS n FROM tasks WHERE kind = $1', [kind]);
      return (rows[0] as { n: number }).n;
    };
    expect(await count()).toBe(2);
    await expect(ask('bob', 'm0')).resolves.toMatchObject({ state: 'queued' });
    await expect(tasks.assertBelowLimit(kind, ids.carol, limit)).rejects.toBeInstanceOf(TooManyRequestsError);

    // One of Carol's is cancelled: one place again, and only one, for two asking at once.
    await tasks.cancel((accepted[0] as TaskRecord).id, ids.carol);
    await tasks.assertBelowLimit(kind, ids.carol, limit);
    const again = await Promise.allSettled([ask('carol', 'l5'), ask('carol', 'l6')]);
    expect(again.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await count()).toBe(4);

    held.get(`${engine}:z0`)?.();
    await until(ours, (names) => names.includes('m0'));
    await t.app.encore.platform.jobs.idle();
  });
});

describe.runIf(engines.includes('postgres'))('a fair queue worked by several processes on PostgreSQL', () => {
  it('hands out owners in turn whichever worker process asks', async () => {
    releaseAll = false;
    // The serving process only sends; two worker processes (each a pg-boss of its own, one job at a time) work.
    const t = await startTestApp('postgres', { WORKER: 'off' }, {}, { extraJobs: [fair] });
    const workers: Platform[] = [];
    try {
      for (const name of ['alice', 'bob', 'carol']) await account(t, name);
      const rows = await t.app.encore.platform.database.db.select().from(users);
      const id = (name: string) => rows.find((user) => user.userName === name)?.id ?? 0;
      for (let n = 0; n < 2; n++) workers.push(await startWorker(t.config, pino({ level: 'silent' }), [fair]));
      const send = (owner: string, name: string, hold = false) =>
        t.app.encore.platform.tasks.start({ kind: fairKind.name, ownerId: id(owner), job: fairKind, payload: { name: `multi:${name}`, hold } });
      const ours = () => started.filter((name) => name.startsWith('multi:')).map((name) => name.slice('multi:'.length));
      // Alice's first two hold both workers; then she queues eight more, and Bob and Carol one each.
      await send('alice', 'a0', true);
      await send('alice', 'a1', true);
      await until(ours, (names) => names.includes('a0') && names.includes('a1'));
      for (let n = 2; n <= 9; n++) await send('alice', `a${n}`);
      await send('bob', 'b0');
      await send('carol', 'c0');
      held.get('multi:a0')?.();
      await until(ours, (names) => names.includes('a9'));
      // Whichever worker took them, Bob's and Carol's went before Alice's third.
      expect(ours().slice(2, 5)).toEqual(['b0', 'c0', 'a2']);
      held.get('multi:a1')?.();
      for (const worker of workers) await worker.jobs.idle();
    } finally {
      releaseAll = true;
      for (const release of held.values()) release();
      for (const worker of workers) await worker.close();
      await t.close();
    }
  }, 120_000);
});
