import { execFile } from 'node:child_process';
import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../platform/logger.js';
import { createFfmpeg, type Ffmpeg } from '../../../platform/media/ffmpeg.js';
import { FfmpegError } from '../../../platform/media/ffmpeg.error.js';
import type { RunningFfmpeg } from '../../../platform/media/ffmpeg.run.js';
import { runEncoder } from './05-encode.js';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
/** A minute of silence read in real time: an encoder that runs until it is stopped. */
const LONG_RUN = { args: ['-re', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '60', '-f', 'null', '-'], filter: '' };

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The encoder's run while its process id is being written (work-dir.ts): a cancellation or a
 * failed write in that moment must neither leave ffmpeg running nor reject a promise nobody
 * awaits (which would end the server).
 */
describe('runEncoder', () => {
  let workDir: string;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let started: RunningFfmpeg[];
  let ffmpeg: Ffmpeg;

  beforeEach(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'encore-encode-test-'));
    unhandled = [];
    started = [];
    process.on('unhandledRejection', onUnhandled);
    const real = createFfmpeg({ dataDir: tmpdir(), logger: quiet });
    ffmpeg = { ...real, start: async (args, options) => started[started.push(await real.start(args, options)) - 1] as RunningFfmpeg };
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    for (const running of started) running.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('ffmpeg cancelled while its process id is being written: rejects as cancelled, nothing unhandled', async () => {
    // A named pipe in place of the pid file: the write waits until the test reads it.
    await promisify(execFile)('mkfifo', [path.join(workDir, 'encoder.pid')]);
    const controller = new AbortController();
    const outcome = runEncoder({ ffmpeg, signal: controller.signal, progress: async () => undefined, workDir }, LONG_RUN, 60, 0, 100).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await expect.poll(() => started.length).toBe(1);
    controller.abort(new Error('The task was cancelled.'));
    // ffmpeg ends, and its `done` rejects, while the write still waits (the test does not
    // observe `done` itself, which would hide a rejection left unobserved).
    await expect.poll(() => alive(started[0]?.pid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reader = await open(path.join(workDir, 'encoder.pid'), 'r');
    const written = await reader.readFile('utf8');
    await reader.close();
    expect(Number(written)).toBe(started[0]?.pid);
    const error = await outcome;
    expect(error).toBeInstanceOf(FfmpegError);
    expect(error).toMatchObject({ kind: 'cancelled' });
    expect(unhandled).toEqual([]);
  });

  it('the process id cannot be written: ffmpeg is stopped before the error is thrown, nothing unhandled', async () => {
    const missing = path.join(workDir, 'gone');
    const error = await runEncoder(
      { ffmpeg, signal: new AbortController().signal, progress: async () => undefined, workDir: missing },
      LONG_RUN,
      60,
      0,
      100,
    ).then(
      () => 'resolved',
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'ENOENT' });
    expect(started).toHaveLength(1);
    expect(alive(started[0]?.pid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});
