import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Task } from '@encore/common/tasks.contract';
import { users } from '../../src/features/auth/auth.schema.js';
import { defineJob, jobKind } from '../../src/platform/jobs/jobs.types.js';
import type { Platform } from '../../src/platform/platform.js';
import { startWorker } from '../../src/worker.js';
import { account, bearer } from '../library/library-test-kit.js';
import { startTestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * On PostgreSQL a serving process (WORKER=light) and a worker share tasks: the heavy job runs in
 * the worker, and the serving process's events stream and cancel reach it (LISTEN/NOTIFY and
 * the task row). PGlite has one process only.
 */
describe.skipIf(!process.env['TEST_DATABASE_URL'])('tasks across processes on postgres', () => {
  it('streams the progress a worker reports, and a cancel made on the serving process stops it', async () => {
    const stopped: string[] = [];
    const kind = jobKind('test.heavy-task', z.object({ name: z.string() }));
    const job = defineJob(kind, {
      retry: { limit: 0, delaySeconds: 1, backoff: false },
      expireInSeconds: 60,
      concurrency: 1,
      weight: 'heavy',
      async handler(payload, context) {
        await context.progress(25, 'working elsewhere');
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        stopped.push(payload.name);
      },
    });
    const t = await startTestApp('postgres', { WORKER: 'light' }, {}, { extraJobs: [job] });
    let worker: Platform | undefined;
    let stream: http.ClientRequest | undefined;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const token = await account(t, 'carol');
      const owner = (await t.app.encore.platform.database.db.select().from(users).limit(1))[0]?.id ?? 0;
      const { ticket } = (await t.app.inject({ method: 'POST', url: '/api/tasks/events-ticket', headers: bearer(token) })).json<{ ticket: string }>();
      const events: Task[] = [];
      await new Promise<void>((resolve) => {
        stream = http.get(`${base}/api/tasks/events?ticket=${encodeURIComponent(ticket)}`, (response) => {
          response.setEncoding('utf8');
          let text = '';
          response.on('data', (chunk: string) => {
            text += chunk;
            for (const match of text.matchAll(/event: task\ndata: (.*)\n\n/g)) events.push(JSON.parse(match[1] ?? '') as Task);
            text = text.slice(text.lastIndexOf('\n\n') + 2);
          });
          resolve();
        });
        stream.on('error', () => undefined);
      });

      worker = await startWorker(t.config, pino({ level: 'silent' }), [job]);
      const task = await t.app.encore.platform.tasks.start({ kind: 'heavy', ownerId: owner, job: kind, payload: { name: 'far' } });
      // Polled, with the test's own time limit as the only clock.
      while (!events.some((event) => event.progress === 25 && event.phase === 'working elsewhere')) await sleep(50);
      expect(events.some((event) => event.id === task.id && event.state === 'running' && event.progress === 25)).toBe(true);

      expect((await t.app.inject({ method: 'POST', url: `/api/tasks/${task.id}/cancel`, headers: bearer(token) })).json()).toMatchObject({
        state: 'cancelled',
      });
      // The handler in the other process sees its signal aborted.
      while (!stopped.includes('far')) await sleep(50);
      expect(stopped).toEqual(['far']);
    } finally {
      stream?.destroy();
      await worker?.close();
      await t.close();
    }
  });
});
