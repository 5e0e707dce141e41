import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Song } from '@encore/common/library.contract';
import type { Task } from '@encore/common/tasks.contract';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { account, bearer, localSetups, startLibraryApp, upload } from '../library/library-test-kit.js';
import { getLyrics, spokenWords, tempDir } from './lyrics-test-kit.js';
import { openAiStandIn } from './openai-stand-in.js';
import { killHard, startWorkerProcess, until } from '../support/worker-process.js';

const SPOKEN = [
  { text: 'hello', at: 1 },
  { text: 'music', at: 3 },
  { text: 'library', at: 5 },
];
const WORDS = ['Hello', 'music', 'library.'];

/**
 * Issue 11: "the worker killed mid-job (the job retries; no half-written lyrics)". A real
 * `main.ts worker` process takes the transcription, and is killed with SIGKILL while the
 * engine (the OpenAI-protocol stand-in, holding its answer) is transcribing. A restarted
 * process retries the job; until it finishes the song has no lyrics at all, then all of them.
 */
describe.each(localSetups)('a worker killed mid-transcription ($engine)', (setup) => {
  it('retries the job in the next process and stores the whole lyrics, never half of them', async () => {
    const temp = await tempDir();
    const standIn = await openAiStandIn(WORDS);
    let release: () => void = () => undefined;
    standIn.mode = { kind: 'held', until: new Promise<void>((resolve) => (release = resolve)) };
    const env = { TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: standIn.url, LYRICS_LOOKUP_URL: 'off' };
    // The serving process only queues (WORKER=off): the transcription is the worker's.
    const t = await startLibraryApp(setup, { ...env, WORKER: 'off' });
    let worker: ReturnType<typeof startWorkerProcess> | undefined;
    let restarted: FastifyInstance | undefined;
    try {
      const owner = await account(t, 'crashowner');
      const song = (await upload(t, owner, await spokenWords(temp.dir, SPOKEN, 7, 'Crash Test.mp3'))).song;
      const started = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/transcription`, headers: bearer(owner), payload: {} });
      expect(started.statusCode, started.body).toBe(202);
      const { taskId } = started.json<{ taskId: string }>();

      // PGlite's database belongs to one process: the serving one hands it to the worker.
      if (setup.engine === 'pglite') await t.app.close();
      const processEnv = {
        ...env,
        DATA_DIR: t.dataDir,
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
        PUBLIC_URL: 'http://encore.test',
        LOG_LEVEL: 'warn',
        ANALYSIS_BACKFILL: 'false',
        ANALYSIS_ON_INGEST: 'false',
      };
      worker = startWorkerProcess(processEnv);
      const running = worker;
      await until(
        () => standIn.requests.length === 1,
        () => {
          if (running.child.exitCode !== null) throw new Error(`the worker exited before transcribing: ${running.stderr()}`);
        },
      );
      await killHard(running.child);
      expect(running.child.signalCode).toBe('SIGKILL');

      if (setup.engine === 'postgres') {
        // Other processes may be alive, yet the dead worker's job is handed back at once, not at
        // its expiry (TRANSCRIBE_TIMEOUT_SECONDS + 10 min): by the serving process's sweep, run
        // now rather than at its next 15-second tick.
        const { executor } = t.app.encore.platform.database;
        const states = async () => (await executor.executeSql(`SELECT state FROM pgboss.job WHERE name = 'lyrics.transcribe'`)).rows;
        await expect
          .poll(() => t.app.encore.platform.jobs.retryJobsOfDeadWorkers().then(states), { timeout: 20_000, interval: 250 })
          .toEqual([{ state: 'retry' }]);
      }
      restarted = await buildApp(loadConfig(processEnv));
      const after = { ...t, app: restarted };
      const jobRows = () =>
        restarted!.encore.platform.database.executor.executeSql(`SELECT state, retry_count FROM pgboss.job WHERE name = 'lyrics.transcribe'`);

      // The retry is transcribing (the stand-in asked again): nothing of the killed attempt was stored.
      await until(() => standIn.requests.length === 2);
      expect((await jobRows()).rows).toEqual([{ state: 'active', retry_count: 1 }]);
      const during = await getLyrics(after, owner, song.id);
      expect(during).toMatchObject({ hasLyrics: false, text: '', words: null, source: null, transcriptionTaskId: taskId });
      expect((await after.app.inject({ url: `/api/files/${song.id}`, headers: bearer(owner) })).json<Song>().transcript ?? null).toBeNull();

      release();
      let task: Task | undefined;
      await until(async () => {
        task = (await after.app.inject({ url: `/api/tasks/${taskId}`, headers: bearer(owner) })).json<Task>();
        return ['done', 'failed', 'cancelled'].includes(task.state);
      });
      expect(task?.state, task?.error ?? '').toBe('done');
      expect(task?.result).toMatchObject({ songId: song.id, wordCount: 3, stored: true });
      const lyrics = await getLyrics(after, owner, song.id);
      expect(lyrics).toMatchObject({ hasLyrics: true, source: 'transcribed', timing: 'word', transcriptionTaskId: null });
      expect(lyrics.text.split(/\s+/)).toEqual(WORDS);
      expect(lyrics.words!.map((word) => word.text)).toEqual(WORDS);
      lyrics.words!.forEach((word, index) => expect(Math.abs(word.start - SPOKEN[index]!.at), word.text).toBeLessThan(0.35));
      expect(standIn.requests).toHaveLength(2);
      expect((await jobRows()).rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    } finally {
      release();
      if (worker) await killHard(worker.child);
      await restarted?.close();
      await t.close();
      await standIn.close();
      await temp.cleanup();
    }
  }, 120_000);
});
