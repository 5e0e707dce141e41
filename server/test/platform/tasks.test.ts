import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Task } from '@encore/common/tasks.contract';
import { defineJob, jobKind, TaskFailure } from '../../src/platform/jobs/jobs.types.js';
import { ABANDONED_MESSAGE } from '../../src/platform/tasks/tasks.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';
import { authModule } from '../../src/features/auth/auth.module.js';
import { users } from '../../src/features/auth/auth.schema.js';

/**
 * Reads until `done` holds, however long that takes on a busy machine: the test's own time limit
 * is the only clock. (What changes here is in the database, so it is read again; the pause
 * between reads only spares the CPU.)
 */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface EventsReader {
  status: number;
  tasks: Task[];
  /** Resolves at the first `task` event (already received or to come) that `match` accepts. */
  task(match: (task: Task) => boolean): Promise<Task>;
  /** Resolves once `count` keep-alive comments have arrived. */
  keepAlives(count: number): Promise<void>;
  /** The server ended the stream. */
  ended: () => boolean;
  close: () => void;
}

/** A real EventSource-like reader over HTTP: collects the `task` events of the stream. */
function openEvents(url: string): Promise<EventsReader> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let text = '';
      let comments = 0;
      let ended = false;
      const tasks: Task[] = [];
      const waiters = new Set<() => void>();
      const waitFor = (ready: () => boolean) =>
        new Promise<void>((done) => {
          const check = () => ready() && (waiters.delete(check), done());
          waiters.add(check);
          check();
        });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block === ': keep-alive') comments += 1;
          if (block.startsWith('event: task\n')) tasks.push(JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Task);
        }
        for (const check of [...waiters]) check();
      });
      response.on('close', () => (ended = true));
      resolve({
        status: response.statusCode ?? 0,
        tasks,
        task: async (match) => {
          await waitFor(() => tasks.some(match));
          return tasks.find(match) as Task;
        },
        keepAlives: (count) => waitFor(() => comments >= count),
        ended: () => ended,
        close: () => request.destroy(),
      });
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}

const gates = new Map<string, () => void>();
const aborted: string[] = [];
const renderKind = jobKind('test.render', z.object({ name: z.string(), until: z.enum(['released', 'cancelled']) }));
const render = defineJob(renderKind, {
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  expireInSeconds: 60,
  concurrency: 2,
  weight: 'light',
  async handler(payload, context) {
    await context.progress(10, 'preparing');
    await context.progress(40, 'rendering');
    if (payload.until === 'cancelled') {
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted.push(payload.name);
      throw new Error('stopped');
    }
    await new Promise<void>((resolve) => gates.set(payload.name, resolve));
    return { frames: 3 };
  },
});

/** Fails as told: a refusal a retry would repeat, or a passing fault that the next attempt gets over. Attempts by name (each engine's run names its own). */
const attempts = new Map<string, number>();
const flakyKind = jobKind('test.flaky', z.object({ name: z.string(), fault: z.enum(['refused', 'passing']) }));
const flaky = defineJob(flakyKind, {
  // Retried at once: the worker that ran the failed attempt looks again as soon as it is recorded, so no clock decides when.
  retry: { limit: 3, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  concurrency: 2,
  weight: 'light',
  async handler(payload) {
    const attempt = (attempts.get(payload.name) ?? 0) + 1;
    attempts.set(payload.name, attempt);
    if (payload.fault === 'refused') throw new TaskFailure('The endpoint answered 401: check the key', { retry: false });
    if (attempt === 1) throw new TaskFailure('The endpoint could not be reached');
    return { attempt };
  },
});

describe.each(engines)('tasks on %s', (engine) => {
  let t: TestApp;
  let base: string;
  let alice: string;
  let bob: string;
  let aliceId: number;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, {}, { extraJobs: [render, flaky] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    alice = await account(t, 'alice');
    bob = await account(t, 'bob');
    const rows = await t.app.encore.platform.database.db.select().from(users);
    aliceId = rows.find((user) => user.userName === 'alice')?.id ?? 0;
  });
  afterAll(async () => t?.close());

  const ticket = async (token: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/tasks/events-ticket', headers: bearer(token) })).json<{ ticket: string }>().ticket;
  const read = (id: string, token: string) => t.app.inject({ method: 'GET', url: `/api/tasks/${id}`, headers: bearer(token) });

  it("shows the owner the progress and the outcome by polling and over SSE, and nobody else's", async () => {
    const aliceEvents = await openEvents(`${base}/api/tasks/events?ticket=${encodeURIComponent(await ticket(alice))}`);
    const bobEvents = await openEvents(`${base}/api/tasks/events?ticket=${encodeURIComponent(await ticket(bob))}`);
    try {
      expect(aliceEvents.status).toBe(200);
      const task = await t.app.encore.platform.tasks.start({
        kind: 'render',
        ownerId: aliceId,
        subject: { type: 'clip', id: '7' },
        job: renderKind,
        payload: { name: 'polled', until: 'released' },
      });

      const running = await until(
        async () => (await read(task.id, alice)).json<Task>(),
        (body) => body.progress === 40,
      );
      expect(running).toMatchObject({ id: task.id, kind: 'render', state: 'running', phase: 'rendering', subjectType: 'clip', subjectId: '7' });
      expect((await read(task.id, bob)).statusCode).toBe(404);
      expect((await read(task.id, bob)).json()).toEqual({ message: 'Task not found.' });
      expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${task.id}/cancel`, headers: bearer(bob) })).statusCode).toBe(404);
      expect((await read('not-a-task', alice)).statusCode).toBe(404);
      expect((await read(task.id, 'nonsense')).statusCode).toBe(401);

      await until(() => gates.has('polled'), Boolean);
      gates.get('polled')?.();
      const done = await until(
        async () => (await read(task.id, alice)).json<Task>(),
        (body) => body.state === 'done',
      );
      expect(done).toMatchObject({ progress: 100, result: { frames: 3 }, error: null });
      expect(done.finishedAt).not.toBeNull();

      await aliceEvents.task((event) => event.id === task.id && event.state === 'done');
      const mine = aliceEvents.tasks.filter((event) => event.id === task.id);
      expect(mine.map((event) => event.state)).toContain('running');
      expect(mine.some((event) => event.progress === 40 && event.phase === 'rendering')).toBe(true);
      expect(mine.at(-1)).toMatchObject({ state: 'done', progress: 100 });
      expect(bobEvents.tasks).toEqual([]);
    } finally {
      aliceEvents.close();
      bobEvents.close();
    }
  });

  it('refuses the events stream without a valid ticket, and never takes the session token in the URL', async () => {
    const forged = await t.app.inject({ method: 'GET', url: `/api/tasks/events?ticket=${encodeURIComponent(`${aliceId}.9999999999.${'A'.repeat(43)}`)}` });
    expect(forged.statusCode).toBe(401);
    const session = await t.app.inject({ method: 'GET', url: `/api/tasks/events?ticket=${encodeURIComponent(alice)}` });
    expect(session.statusCode).toBe(401);
    const { tokens } = t.app.encore.modules.internals(authModule).auth;
    // A ticket of alice's live session, issued longer ago than a ticket lives.
    const expired = await tokens.issueTicket(await tokens.verify(alice), Date.now() - 61_000);
    expect((await t.app.inject({ method: 'GET', url: `/api/tasks/events?ticket=${encodeURIComponent(expired)}` })).statusCode).toBe(401);
  });

  it('fails a task whose job pg-boss gave up on (expired on its last attempt) instead of leaving it running', async () => {
    const { tasks, database } = t.app.encore.platform;
    const task = await tasks.start({ kind: 'render', ownerId: aliceId, job: renderKind, payload: { name: 'expired', until: 'released' } });
    await until(
      () => tasks.get(task.id, aliceId),
      (row) => row?.state === 'running',
    );
    // A running task with a live job is left alone, and so is any task younger than the grace period.
    expect(await tasks.sweepAbandoned(0)).toBe(0);
    // What pg-boss's maintenance does to an attempt past its expiry with no retries left.
    await database.executor.executeSql(`UPDATE pgboss.job SET state = 'failed' WHERE data->>'_task' = $1`, [task.id]);
    expect(await tasks.sweepAbandoned()).toBe(0);
    expect(await tasks.sweepAbandoned(0)).toBe(1);
    const failed = await tasks.get(task.id, aliceId);
    expect(failed).toMatchObject({ state: 'failed', error: ABANDONED_MESSAGE });
    // The handler still holding it is told to stop, and its late result changes nothing.
    await until(() => gates.has('expired'), Boolean);
    gates.get('expired')?.();
    await t.app.encore.platform.jobs.idle();
    expect((await tasks.get(task.id, aliceId))?.state).toBe('failed');
  });

  it('fails at once, without retries, on a failure a retry would repeat; retries a passing one', async () => {
    const { tasks } = t.app.encore.platform;
    const refused = await tasks.start({ kind: 'flaky', ownerId: aliceId, job: flakyKind, payload: { name: `${engine}-refused`, fault: 'refused' } });
    const passing = await tasks.start({ kind: 'flaky', ownerId: aliceId, job: flakyKind, payload: { name: `${engine}-passing`, fault: 'passing' } });
    const failed = await until(
      () => tasks.get(refused.id, aliceId),
      (row) => row?.state === 'failed',
    );
    expect(failed).toMatchObject({ error: 'The endpoint answered 401: check the key' });
    const done = await until(
      () => tasks.get(passing.id, aliceId),
      (row) => row?.state === 'done',
    );
    expect(done).toMatchObject({ result: { attempt: 2 }, error: null });
    // The refusal's job failed for good on its first attempt: pg-boss never runs a failed job again.
    const { rows } = await t.app.encore.platform.database.executor.executeSql(`SELECT state, retry_count FROM pgboss.job WHERE data->>'_task' = $1`, [
      refused.id,
    ]);
    expect(rows).toEqual([{ state: 'failed', retry_count: 0 }]);
    await t.app.encore.platform.jobs.idle();
    expect(attempts.get(`${engine}-refused`)).toBe(1);
    expect((await tasks.get(refused.id, aliceId))?.state).toBe('failed');
  });

  it('cancel stops the running handler and leaves the task cancelled', async () => {
    const events = await openEvents(`${base}/api/tasks/events?ticket=${encodeURIComponent(await ticket(alice))}`);
    try {
      const task = await t.app.encore.platform.tasks.start({
        kind: 'render',
        ownerId: aliceId,
        job: renderKind,
        payload: { name: 'cancelled', until: 'cancelled' },
      });
      await until(
        async () => (await read(task.id, alice)).json<Task>().progress,
        (progress) => progress === 40,
      );
      const cancelled = await t.app.inject({ method: 'POST', url: `/api/tasks/${task.id}/cancel`, headers: bearer(alice) });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ state: 'cancelled' });
      // The handler's signal is aborted (it throws then), and the attempt ends without touching the task.
      await until(() => aborted.includes('cancelled'), Boolean);
      await t.app.encore.platform.jobs.idle();
      expect((await read(task.id, alice)).json()).toMatchObject({ state: 'cancelled', error: null });
      await events.task((event) => event.id === task.id && event.state === 'cancelled');
      // Cancelling a finished task leaves it as it is.
      expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${task.id}/cancel`, headers: bearer(alice) })).json()).toMatchObject({
        state: 'cancelled',
      });
    } finally {
      events.close();
    }
  });
});

describe('the events stream and the idle timeout', () => {
  it('keeps a quiet stream open past the idle timeout with keep-alive comments', async () => {
    const t = await startTestApp('pglite', { IDLE_TIMEOUT_SECONDS: '1' });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const token = await account(t, 'dave');
      const { ticket } = (await t.app.inject({ method: 'POST', url: '/api/tasks/events-ticket', headers: bearer(token) })).json<{ ticket: string }>();
      const events = await openEvents(`http://127.0.0.1:${port}/api/tasks/events?ticket=${encodeURIComponent(ticket)}`);
      let ended = false;
      try {
        // A comment every half the idle timeout: three of them span more than the timeout, and the stream is still open.
        await events.keepAlives(3);
        expect(events.ended()).toBe(false);
        const rows = await t.app.encore.platform.database.db.select().from(users);
        await t.app.encore.platform.tasks
          .start({ kind: 'render', ownerId: rows[0]?.id ?? 0, job: renderKind, payload: { name: 'late', until: 'cancelled' } })
          .catch(() => {
            ended = true;
          });
        // This app does not declare test.render: sending fails, the task is marked failed, and the stream shows it.
        await events.task((event) => event.state === 'failed');
        expect(ended).toBe(true);
      } finally {
        events.close();
      }
    } finally {
      await t.close();
    }
  });
});
