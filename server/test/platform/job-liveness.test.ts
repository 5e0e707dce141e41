import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobLiveness, DEAD_AFTER_MS, WORKER_LOCK_SPACE } from '../../src/platform/jobs/job-liveness.js';
import { defineJob, jobKind } from '../../src/platform/jobs/jobs.types.js';
import type { Platform } from '../../src/platform/platform.js';
import { startWorker } from '../../src/worker.js';
import { startTestApp } from '../support/test-app.js';

interface JobRow {
  state: string;
  retry_count: number;
}

/**
 * On PostgreSQL several processes work jobs, so a job left `active` may belong to a live one;
 * before job liveness, one whose process died waited for its expiry (6 hours for a render).
 * Each worker holds an advisory lock through a connection of its own: once that connection has
 * been gone for DEAD_AFTER_MS, any process hands the worker's jobs back, and never while it is
 * there or back within that time. (A real SIGKILL of a worker process: clips-crash.test.ts and
 * transcription-crash.test.ts.)
 */
describe.skipIf(!process.env['TEST_DATABASE_URL'])('jobs of a worker that dies, on postgres', () => {
  it('a live worker keeps its job, across a lost connection too; cut off for longer, another process hands the job back and another worker runs it', async () => {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const attempts: string[] = [];
    const kind = jobKind('test.long', z.object({ name: z.string() }));
    const job = defineJob(kind, {
      retry: { limit: 2, delaySeconds: 3600, backoff: false },
      expireInSeconds: 6 * 3600,
      concurrency: 1,
      weight: 'heavy',
      async handler(payload) {
        attempts.push(payload.name);
        if (attempts.length === 1) await released;
      },
    });
    // The serving process only queues and sweeps (WORKER=off); the workers run the job. The
    // first worker logs in as a role of its own, so the test can cut it off the database alone.
    const t = await startTestApp('postgres', { WORKER: 'off' }, {}, { extraJobs: [job] });
    const workers: Platform[] = [];
    const admin = new pg.Client({ connectionString: process.env['TEST_DATABASE_URL'] });
    await admin.connect();
    const role = `encore_cut_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE ROLE "${role}" LOGIN SUPERUSER`);
    const ownUrl = new URL(t.config.databaseUrl ?? '');
    ownUrl.username = role;
    try {
      const { jobs, database } = t.app.encore.platform;
      const query = async <T>(text: string, values: unknown[] = []) => (await database.executor.executeSql(text, values)).rows as T[];
      const jobRow = async (id: string | null) => (await query<JobRow>('SELECT state, retry_count FROM pgboss.job WHERE id = $1', [id]))[0];
      const workerIds = async () => (await query<{ id: number }>('SELECT id FROM job_workers ORDER BY id')).map((row) => row.id);

      workers.push(await startWorker({ ...t.config, databaseUrl: ownUrl.toString() }, pino({ level: 'silent' }), [job]));
      const [first] = await workerIds();
      expect(first).toBeDefined();
      const id = await jobs.send(kind, { name: 'long' });
      await expect.poll(() => attempts.length).toBe(1);
      expect(await query('SELECT queue, worker_id FROM job_claims WHERE job_id = $1', [id])).toEqual([{ queue: 'test.long', worker_id: first }]);

      // Alive (its lock held): nothing is handed back, by the serving process or by the worker itself.
      expect(await jobs.retryJobsOfDeadWorkers()).toBe(0);
      expect(await workers[0]?.jobs.retryJobsOfDeadWorkers()).toBe(0);
      expect(await jobRow(id)).toEqual({ state: 'active', retry_count: 0 });

      // Its liveness connection drops (a network blip, a database restart): it takes its lock back
      // within 2 s, and sweeps meanwhile find it free only for less than DEAD_AFTER_MS.
      const terminateLiveness = async () =>
        (
          await query<{ terminated: boolean }>(
            `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = 'encore-worker-liveness' AND datname = current_database()`,
          )
        ).map((row) => row.terminated);
      const lockHeld = async (worker: number | undefined) =>
        (
          await query(
            // Advisory locks belong to a database: other tests' databases have workers with the same ids.
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [WORKER_LOCK_SPACE, worker],
          )
        ).length === 1;
      expect(await terminateLiveness()).toEqual([true]);
      const blip = Date.now();
      while (Date.now() - blip < DEAD_AFTER_MS + 2000) {
        expect(await jobs.retryJobsOfDeadWorkers()).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await lockHeld(first)).toBe(true);
      expect(await jobRow(id)).toEqual({ state: 'active', retry_count: 0 });

      // Cut off for longer (the database refuses its logins): taken for dead, its job is handed back for a retry now.
      try {
        await admin.query(`ALTER ROLE "${role}" NOLOGIN`);
        expect(await terminateLiveness()).toEqual([true]);
        await expect.poll(() => jobs.retryJobsOfDeadWorkers(), { timeout: 20_000, interval: 250 }).toBe(1);
      } finally {
        await admin.query(`ALTER ROLE "${role}" LOGIN`);
      }
      expect((await jobRow(id))?.state).toBe('retry');
      expect(await query('SELECT job_id FROM job_claims')).toEqual([]);

      // Another worker takes the retry at once (its delay is an hour) and finishes it.
      workers.push(await startWorker(t.config, pino({ level: 'silent' }), [job]));
      await expect.poll(() => attempts.length, { timeout: 10_000 }).toBe(2);
      await expect.poll(async () => (await jobRow(id))?.state, { timeout: 10_000 }).toBe('completed');

      // The first worker finds it was taken for dead when it connects again, and registers anew.
      await expect.poll(workerIds, { timeout: 10_000, interval: 200 }).toHaveLength(2);
      expect(await workerIds()).not.toContain(first);
      // Its first attempt ending late does not touch the job another worker completed.
      release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await jobRow(id)).toEqual({ state: 'completed', retry_count: 1 });
      expect(attempts).toEqual(['long', 'long']);

      // Workers that stop with nothing running leave no row behind.
      for (const worker of workers.splice(0)) await worker.close();
      expect(await workerIds()).toEqual([]);
    } finally {
      release();
      for (const worker of workers) await worker.close();
      await t.close();
      await admin.query(`DROP ROLE IF EXISTS "${role}"`);
      await admin.end();
    }
  }, 60_000);

  it('keeps the claims of a dead worker until its jobs are retried: a hand-back that fails is made at the next sweep', async () => {
    const kind = jobKind('test.held', z.object({}));
    const job = defineJob(kind, {
      retry: { limit: 2, delaySeconds: 3600, backoff: false },
      expireInSeconds: 6 * 3600,
      concurrency: 1,
      weight: 'heavy',
      handler: async () => undefined,
    });
    const t = await startTestApp('postgres', { WORKER: 'off' }, {}, { extraJobs: [job] });
    try {
      const { jobs, database } = t.app.encore.platform;
      const query = async <T>(text: string, values: unknown[] = []) => (await database.executor.executeSql(text, values)).rows as T[];
      // A worker that died mid-job: its row, its claim, its job active, and no one holding its lock.
      const id = await jobs.send(kind, {});
      await query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [id]);
      const [{ id: dead } = { id: 0 }] = await query<{ id: number }>(`INSERT INTO job_workers (host, pid) VALUES ('gone', 1) RETURNING id`);
      await query(`INSERT INTO job_claims (job_id, queue, worker_id) VALUES ($1, $2, $3)`, [id, kind.name, dead]);
      // The hand-back fails (pg-boss's pool refused a connection, say): nothing is forgotten.
      const liveness = createJobLiveness(database, pino({ level: 'silent' }), { channel: 'unused', wake: () => undefined });
      const refused = async () => {
        throw new Error('connection refused');
      };
      expect(await liveness.sweep(refused)).toEqual([]); // first seen free
      await new Promise((resolve) => setTimeout(resolve, DEAD_AFTER_MS));
      await expect(liveness.sweep(refused)).rejects.toThrow('connection refused');
      expect(await query('SELECT worker_id FROM job_claims WHERE job_id = $1', [id])).toEqual([{ worker_id: dead }]);
      expect(await query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id])).toEqual([{ state: 'active' }]);
      // The next sweep hands it back, then forgets the worker.
      const handed: unknown[] = [];
      expect(await liveness.sweep(async (claimed) => void handed.push(...claimed))).toEqual([{ queue: kind.name, jobId: id }]);
      expect(handed).toEqual([{ queue: kind.name, jobId: id }]);
      expect(await query('SELECT job_id FROM job_claims')).toEqual([]);
      expect(await query('SELECT id FROM job_workers WHERE id = $1', [dead])).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});
