import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ClipListResponse } from '@encore/common/clips.contract';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ABANDONED_MESSAGE } from '../../src/platform/tasks/tasks.js';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import {
  buildClipFixtures,
  buildLongSong,
  clipStatus,
  createClip,
  downloadClip,
  pixelAt,
  probe,
  settingsOf,
  taskIdOf,
  waitForClip,
  type ClipFixtures,
} from './clips-test-kit.js';
import { childrenOf, isAlive, killHard, startWorkerProcess, until, type WorkerProcess } from '../support/worker-process.js';

/**
 * "A render killed mid-way (the worker restarts it or marks it failed; no partial file is
 * served)". A real `main.ts worker` process is killed with SIGKILL while its ffmpeg encodes;
 * that ffmpeg lives on as an orphan. The next process stops the orphan, renders the clip again
 * from the start and serves only the whole video. A render killed on its last attempt fails.
 */
let fixtures: ClipFixtures;
let song: string;
let work: string;
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  song = await buildLongSong(fixtures.dir, 12);
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-crash-'));
}, 60_000);
afterAll(async () => {
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** The environment a restarted process (or a worker) of this test app starts with. */
function processEnv(t: LibraryApp, logLevel = 'silent'): Record<string, string> {
  return {
    DATA_DIR: t.dataDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    PUBLIC_URL: 'http://encore.test',
    LOG_LEVEL: logLevel,
    ANALYSIS_BACKFILL: 'false',
    ANALYSIS_ON_INGEST: 'false',
  };
}

async function clipVideos(app: FastifyInstance): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of app.encore.platform.storage.list('clips/')) keys.push(object.key);
  return keys;
}

const renderJobs = async (app: FastifyInstance) =>
  (await app.encore.platform.database.executor.executeSql(`SELECT state, retry_count FROM pgboss.job WHERE name = 'clips.render'`, [])).rows as {
    state: string;
    retry_count: number;
  }[];

describe.each(localSetups)('a render killed mid-way ($engine)', (setup) => {
  it('is rendered again by the next process, which stops the orphaned ffmpeg; only the whole video is ever served', async () => {
    // The serving process only queues (WORKER=off): the render is the worker's.
    const t = await startLibraryApp(setup, { WORKER: 'off' });
    let worker: WorkerProcess | undefined;
    let orphan: number | undefined;
    let deadWorkDir: string | undefined;
    let restarted: FastifyInstance | undefined;
    try {
      const alice = await account(t, 'alice');
      const songUrl = `/music/${(await upload(t, alice, song)).song.id}`;
      const created = await createClip(t, alice, { settings: settingsOf({}), songUrl }, [fixtures.red, fixtures.blue]);
      expect(created.statusCode).toBe(202);
      const taskId = taskIdOf(created);

      // PGlite's database belongs to one process: the serving one hands it to the worker.
      if (setup.engine === 'pglite') await t.app.close();
      worker = startWorkerProcess(processEnv(t, 'warn'));
      const running = worker;
      // Its encoding ffmpeg is frozen as soon as it appears, so the kill lands mid-render.
      let encoder: { pid: number; workDir: string } | undefined;
      await until(
        async () => {
          const child = (await childrenOf(running.child.pid as number)).find((process) => process.args.includes('-filter_complex'));
          const output = child?.args.at(-1)?.match(/^file:(.*encore-clip-render-[^/]+)\/clip\.mp4$/);
          if (child && output?.[1]) encoder = { pid: child.pid, workDir: output[1] };
          return encoder !== undefined;
        },
        () => {
          if (running.child.exitCode !== null) throw new Error(`the worker exited before rendering: ${running.stderr()}`);
        },
      );
      const { pid, workDir } = encoder as { pid: number; workDir: string };
      process.kill(pid, 'SIGSTOP');
      await killHard(running.child);
      expect(running.child.signalCode).toBe('SIGKILL');
      // The worker is gone; its ffmpeg is not: an orphan, encoding on.
      orphan = pid;
      deadWorkDir = workDir;
      process.kill(pid, 'SIGCONT');
      expect(await isAlive(pid)).toBe(true);

      if (setup.engine === 'postgres') {
        // Seen from the serving process meanwhile: still rendering, no video.
        expect(await clipStatus(t, alice, taskId)).toMatchObject({ status: 'running', video_url: null });
        expect((await t.app.inject({ url: '/api/clips', headers: bearer(alice) })).json<ClipListResponse>().clips[0]).toMatchObject({
          status: 'running',
          videoUrl: null,
          downloadUrl: null,
        });
        expect(await clipVideos(t.app)).toEqual([]);
        // Other processes may be alive and working, yet the dead worker's job is handed back at
        // once (its liveness lock went with its connection), not at its 6-hour expiry: by the
        // serving process's sweep (run now rather than at its next 10-second tick).
        await expect
          .poll(() => t.app.encore.platform.jobs.retryJobsOfDeadWorkers().then(() => renderJobs(t.app)), { timeout: 20_000, interval: 250 })
          .toEqual([{ state: 'retry', retry_count: 0 }]);
      }

      restarted = await buildApp(loadConfig(processEnv(t)));
      const after = { ...t, app: restarted };
      const status = await waitForClip(after, alice, taskId);
      expect(status).toMatchObject({ status: 'done', progress: 100 });
      // The retry stopped the orphan and removed the killed render's folder.
      expect(await isAlive(pid)).toBe(false);
      await expect(stat(workDir)).rejects.toThrow();
      // The task is done when the handler returns; pg-boss marks the job completed just after.
      await expect.poll(() => renderJobs(after.app)).toEqual([{ state: 'completed', retry_count: 1 }]);

      // The one video stored is the whole clip: both pictures, the full length.
      expect(await clipVideos(restarted)).toHaveLength(1);
      const file = await downloadClip(after, status.video_url as string, work, `crash-${setup.engine}.mp4`);
      const info = await probe(file);
      expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 854, height: 480 });
      expect(Math.abs(Number(info.format.duration) - 12)).toBeLessThan(0.1);
      expect((await pixelAt(file, 1, 10, 470))[0]).toBeGreaterThan(150);
      expect((await pixelAt(file, 11, 10, 470))[2]).toBeGreaterThan(150);
    } finally {
      if (worker) await killHard(worker.child);
      if (orphan !== undefined && (await isAlive(orphan))) process.kill(orphan, 'SIGKILL');
      if (deadWorkDir) await rm(deadWorkDir, { recursive: true, force: true });
      await restarted?.close();
      await t.close();
    }
  }, 120_000);

  it('killed on its last attempt: the render is marked failed and nothing is served', async () => {
    const t = await startLibraryApp(setup, { WORKER: 'off' });
    let restarted: FastifyInstance | undefined;
    try {
      const alice = await account(t, 'alice');
      const songUrl = `/music/${(await upload(t, alice, fixtures.song)).song.id}`;
      const taskId = taskIdOf(await createClip(t, alice, { settings: settingsOf({}), songUrl }, [fixtures.red]));
      // What a process killed during the last attempt leaves: the job active with no retry left,
      // the task running for a while (as job-recovery.test.ts does for mail).
      const { executor } = t.app.encore.platform.database;
      const startedAgo = setup.engine === 'pglite' ? '1 second' : '7 hours';
      await executor.executeSql(
        `UPDATE pgboss.job SET state = 'active', retry_count = retry_limit, started_on = now() - $1::interval WHERE name = 'clips.render'`,
        [startedAgo],
      );
      await executor.executeSql(
        `UPDATE tasks SET state = 'running', progress = 40, phase = 'Rendering', started_at = now(), created_at = now() - interval '10 minutes' WHERE id = $1`,
        [taskId],
      );
      await t.app.close();

      restarted = await buildApp(loadConfig(processEnv(t)));
      const after = { ...t, app: restarted };
      expect(await renderJobs(restarted)).toEqual([{ state: 'failed', retry_count: 1 }]);
      // The task fails at the minutely sweep of abandoned tasks (run now rather than waited for); never a video.
      expect((await clipStatus(after, alice, taskId)).video_url).toBeNull();
      await restarted.encore.platform.tasks.sweepAbandoned();
      expect(await clipStatus(after, alice, taskId)).toMatchObject({ status: 'error', video_url: null, message: ABANDONED_MESSAGE });
      expect(await clipVideos(restarted)).toEqual([]);
    } finally {
      await restarted?.close();
      await t.close();
    }
  }, 60_000);
});
