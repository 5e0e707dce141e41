import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { makeWorkDir, recordEncoder } from '../../src/features/clips/phases/work-dir.js';
import { processJobs } from '../../src/modules/process-jobs.js';
import { makeOwnedTempDir } from '../../src/platform/fs/owned-temp-dir.js';
import { THIS_PROCESS } from '../../src/platform/fs/process-owner.js';
import { engines, startTestApp } from '../support/test-app.js';

/**
 * Issue 25: what a process killed mid-work (kill -9) leaves on disk — the temp file of an
 * upload or any atomic write, a create-clip upload's spool, a render's folder and the ffmpeg
 * still encoding into it — is removed by the next process at its start, whatever its age,
 * because nothing alive owns it; and by the hourly clean-up. A live process's are kept.
 */
const children: ChildProcess[] = [];
const leftovers: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of leftovers.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** A process of this machine that waits a minute, its command line naming `arg`. */
function waiting(arg = 'waiting'): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', arg], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** The id of a process of this machine that has exited (as a killed one has). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

const ownerOf = (pid: number) => `${THIS_PROCESS.host}.${pid}.0badc0de`;
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );
const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));

/** An owned temp folder as `pid` would have left it, with a file inside. */
async function ownedDir(make: () => Promise<string>, pid: number): Promise<string> {
  const dir = await make();
  leftovers.push(dir);
  await fs.writeFile(path.join(dir, 'owner'), ownerOf(pid));
  await fs.writeFile(path.join(dir, 'media-0'), 'half a picture');
  return dir;
}

describe.each(engines)('leftovers of a killed process on %s', (engine) => {
  it('are removed at the next start whatever their age, and by the hourly clean-up; those of a live process are kept', async () => {
    const first = await startTestApp(engine, { WORKER: 'off' });
    const { config, dataDir } = first;
    let second: FastifyInstance | undefined;
    try {
      const dead = await deadPid();
      const live = waiting().pid as number;
      const folder = path.join(dataDir, 'media', 'songs', '0f8fad5b-d9cb-469f-a165-70867728950e');
      await fs.mkdir(folder, { recursive: true });
      // Written a moment ago: an upload cut off by the kill, and one a live process is writing.
      const deadTemp = path.join(folder, `.0123456789abcdef.${ownerOf(dead)}.tmp`);
      const liveTemp = path.join(folder, `.00112233445566ff.${ownerOf(live)}.tmp`);
      await fs.writeFile(deadTemp, 'half a song');
      await fs.writeFile(liveTemp, 'half a song');
      const spool = await ownedDir(() => makeOwnedTempDir('clip-upload'), dead);
      const liveSpool = await ownedDir(() => makeOwnedTempDir('clip-upload'), live);
      const render = await ownedDir(() => makeWorkDir(), dead);
      const orphan = waiting(path.join(render, 'clip.mp4'));
      await recordEncoder(render, orphan.pid);
      await first.app.close();

      second = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}) }));
      // Swept in the background after start-up.
      await expect.poll(() => Promise.all([deadTemp, spool, render].map(exists))).toEqual([false, false, false]);
      await exited(orphan);
      expect(orphan.signalCode).toBe('SIGKILL');
      expect(await exists(liveSpool)).toBe(true);
      // With PGlite this process alone writes in DATA_DIR: every temp file there at its start is a leftover.
      expect(await exists(liveTemp)).toBe(engine === 'postgres');

      // Killed later on, with no start to follow: the hourly clean-up removes them.
      const laterTemp = path.join(folder, `.fedcba9876543210.${ownerOf(dead)}.tmp`);
      await fs.writeFile(laterTemp, 'half a song');
      const laterSpool = await ownedDir(() => makeOwnedTempDir('clip-upload'), dead);
      const cleanup = processJobs(second.encore.platform, second.encore.modules).find((job) => job.name === 'maintenance.cleanup');
      await cleanup?.handler({}, { jobId: 'test', signal: new AbortController().signal, task: undefined, progress: async () => undefined });
      expect(await exists(laterTemp)).toBe(false);
      expect(await exists(laterSpool)).toBe(false);
      expect(await exists(liveSpool)).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  }, 300_000);
});
