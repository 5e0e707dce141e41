import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, makeWorkDir, recordEncoder, sweepDeadWorkDirs } from './work-dir.js';

const children: ChildProcess[] = [];
const roots: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function root(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-work-dir-test-'));
  roots.push(dir);
  return dir;
}

/** A process that waits a minute, its command line naming `arg` (as an encoder names its output). */
function waiting(arg: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', arg], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

const exists = (dir: string) =>
  stat(dir).then(
    () => true,
    () => false,
  );
const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
const later = new Date(Date.now() - 3600_000);

describe('render work folders', () => {
  it('removes the folder of a killed process and kills the ffmpeg it left running', async () => {
    const base = await root();
    const dir = await makeWorkDir(base);
    await writeFile(path.join(dir, 'owner'), `${hostname()} ${await deadPid()}`);
    const orphan = waiting(path.join(dir, 'clip.mp4'));
    await recordEncoder(dir, orphan.pid);
    expect(await sweepDeadWorkDirs({ root: base, staleBefore: later })).toEqual([dir]);
    await exited(orphan);
    expect(orphan.signalCode).toBe('SIGKILL');
    expect(await exists(dir)).toBe(false);
  });

  it('keeps a live render, never kills a process that does not name the folder, and leaves other machines to age', async () => {
    const base = await root();
    const live = await makeWorkDir(base);
    const reused = await makeWorkDir(base);
    await writeFile(path.join(reused, 'owner'), `${hostname()} ${await deadPid()}`);
    const stranger = waiting(path.join(base, 'elsewhere.mp4'));
    await recordEncoder(reused, stranger.pid);
    const remote = await makeWorkDir(base);
    await writeFile(path.join(remote, 'owner'), `another-host ${await deadPid()}`);
    const unowned = await mkdtemp(path.join(base, 'encore-clip-render-'));
    const unrelated = path.join(base, 'encore-clip-upload-x');
    await mkdir(unrelated);

    expect((await sweepDeadWorkDirs({ root: base, staleBefore: later })).sort()).toEqual([reused]);
    expect(isRunning(stranger.pid as number)).toBe(true);
    for (const dir of [live, remote, unowned, unrelated]) expect(await exists(dir)).toBe(true);

    // Untouched past the cut-off: a leftover whatever its owner says.
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const dir of [remote, unowned]) {
      await utimes(path.join(dir), old, old);
      if (await exists(path.join(dir, 'owner'))) await utimes(path.join(dir, 'owner'), old, old);
    }
    expect((await sweepDeadWorkDirs({ root: base, staleBefore: later })).sort()).toEqual([remote, unowned].sort());
    expect(await exists(live)).toBe(true);
  });
});
