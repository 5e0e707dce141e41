import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Task } from '@encore/common/tasks.contract';
import { WHISPER_FILES } from '../../src/features/lyrics/transcription/whisper-local.engine.js';
import { account, bearer, localSetups, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { getLyrics, hubStandIn, putLyrics, spokenWords, tempDir } from './lyrics-test-kit.js';

const MODEL = 'test-org/whisper-app_timestamped';
/** Every file the local engine needs, as the hub would serve them (not a model: no weights can be fetched here). */
const FILES: Record<string, Buffer> = Object.fromEntries(
  WHISPER_FILES.map((file) => [
    file.path,
    file.path === 'onnx/encoder_model_quantized.onnx' ? randomBytes(400_000) : Buffer.from(file.path.endsWith('.json') ? '{}' : 'onnx'),
  ]),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function taskOf(t: LibraryApp, token: string, taskId: string): Promise<Task> {
  return (await t.app.inject({ url: `/api/tasks/${taskId}`, headers: bearer(token) })).json<Task>();
}

/** Polls the task until `done` holds for it; the test's own time limit bounds the wait. */
async function untilTask(t: LibraryApp, token: string, taskId: string, done: (task: Task) => boolean): Promise<Task> {
  for (;;) {
    const task = await taskOf(t, token, taskId);
    if (done(task)) return task;
    await sleep(50);
  }
}

/**
 * The local engine inside Encore (TRANSCRIBE_ENGINE=local): the model is fetched on first use
 * into DATA_DIR/models from a hub on loopback, with the download's progress in the song's task;
 * a hub that cannot serve it fails the task with what to set, and stored lyrics stay.
 */
describe.each(localSetups)('the local engine in a transcription task ($engine)', (setup) => {
  it('says what to set when the model cannot be fetched, then downloads it with visible progress into DATA_DIR/models', async () => {
    const temp = await tempDir();
    const hub = await hubStandIn({ [MODEL]: FILES });
    const t = await startLibraryApp(setup, { TRANSCRIBE_ENGINE: 'local', TRANSCRIBE_MODEL: MODEL, TRANSCRIBE_MODEL_HOST: hub.url, LYRICS_LOOKUP_URL: 'off' });
    try {
      const owner = await account(t, 'localowner');
      const song = (await upload(t, owner, await spokenWords(temp.dir, [{ text: 'hello', at: 0.5 }], 2))).song;
      expect((await putLyrics(t, owner, song.id, { transcript: 'Kept as they are' })).statusCode).toBe(200);
      const before = await getLyrics(t, owner, song.id);

      hub.down = true;
      const refused = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/transcribe`, headers: bearer(owner), payload: {} });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json<{ message: string }>().message).toBe(
        'The model host answered 503 for config.json: check TRANSCRIBE_MODEL_HOST, or set TRANSCRIBE_MODEL_DIR to a folder holding the model',
      );
      expect(await getLyrics(t, owner, song.id)).toEqual(before);

      hub.down = false;
      let release: () => void = () => undefined;
      hub.holdNextBigDownload = new Promise<void>((resolve) => (release = resolve));
      const started = await t.app.inject({ method: 'POST', url: `/api/files/${song.id}/lyrics/transcription`, headers: bearer(owner), payload: {} });
      expect(started.statusCode, started.body).toBe(202);
      const { taskId } = started.json<{ taskId: string }>();
      // The hub holds the weights after their first part: the task shows the download meanwhile.
      const downloading = await untilTask(
        t,
        owner,
        taskId,
        (task) => task.phase?.startsWith('Downloading the speech model') === true || !['queued', 'running'].includes(task.state),
      );
      expect(downloading.phase).toMatch(/^Downloading the speech model \(\d+\.\d of 0\.4 MB\)$/);
      expect(downloading.progress).toBeLessThan(25); // the download's share of the bar
      release();

      // The files are no model, so loading them fails, with what to check; nothing stored is lost.
      const failed = await untilTask(t, owner, taskId, (task) => !['queued', 'running'].includes(task.state));
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatch(
        /^The speech model test-org\/whisper-app_timestamped could not be loaded .*check TRANSCRIBE_MODEL or TRANSCRIBE_MODEL_DIR$/s,
      );
      const folder = path.join(t.dataDir, 'models', 'test-org', 'whisper-app_timestamped');
      for (const file of WHISPER_FILES) expect(await fs.readFile(path.join(folder, file.path)), file.path).toEqual(FILES[file.path]);
      expect(await getLyrics(t, owner, song.id)).toEqual(before);
    } finally {
      await t.close();
      await hub.close();
      await temp.cleanup();
    }
  }, 120_000);
});
