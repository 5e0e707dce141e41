import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THIS_PROCESS } from '../fs/process-owner.js';
import { EmbeddedDatabaseInUseError, lockEmbeddedDatabase } from './embedded-lock.js';

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'encore-lock-'));
  dir = path.join(root, 'db');
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('the embedded database lock', () => {
  it('lets one opener at a time have the folder, and the next once it is released', async () => {
    const release = await lockEmbeddedDatabase(dir);
    await expect(lockEmbeddedDatabase(dir)).rejects.toThrow(EmbeddedDatabaseInUseError);
    await expect(lockEmbeddedDatabase(dir)).rejects.toThrow(`is open in another Encore (process ${process.pid})`);
    await release();
    const again = await lockEmbeddedDatabase(dir);
    await again();
  });

  it('refuses while another live process holds it, naming it', async () => {
    await writeFile(`${dir}.lock`, `${THIS_PROCESS.host}.${process.ppid}.0badc0de\n`);
    await expect(lockEmbeddedDatabase(dir)).rejects.toThrow(`process ${process.ppid}`);
    // Another machine's process cannot be asked: refused while it keeps its lock touched.
    await writeFile(`${dir}.lock`, `nas-box.4242.0badc0de\n`);
    await expect(lockEmbeddedDatabase(dir)).rejects.toThrow(`If that process is gone, delete ${dir}.lock`);
  });

  it("takes over another machine's lock once untouched for minutes (a container made again after a crash)", async () => {
    await writeFile(`${dir}.lock`, `old-container.1.0badc0de\n`);
    await utimes(`${dir}.lock`, new Date(Date.now() - 10 * 60_000), new Date(Date.now() - 10 * 60_000));
    await (
      await lockEmbeddedDatabase(dir)
    )();
  });

  it('takes over the lock of a process that is gone, and an empty one left long ago', async () => {
    await writeFile(`${dir}.lock`, `${THIS_PROCESS.host}.2147483646.0badc0de\n`);
    const release = await lockEmbeddedDatabase(dir);
    expect((await readFile(`${dir}.lock`, 'utf8')).trim()).toContain(`.${process.pid}.`);
    await release();
    await writeFile(`${dir}.lock`, '');
    await utimes(`${dir}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await (
      await lockEmbeddedDatabase(dir)
    )();
  });

  it('never removes a lock that is no longer its own', async () => {
    const release = await lockEmbeddedDatabase(dir);
    await writeFile(`${dir}.lock`, `${THIS_PROCESS.host}.${process.ppid}.0badc0de\n`);
    await release();
    expect(await readFile(`${dir}.lock`, 'utf8')).toContain(`.${process.ppid}.`);
  });
});
