import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNewFile } from '../../src/platform/fs/atomic-write.js';
import type { Logger } from '../../src/platform/logger.js';
import { createStorage } from '../../src/platform/storage/storage.js';
import type { Storage } from '../../src/platform/storage/storage.types.js';

/**
 * Issue 37: storage awaits (a folder made, a file opened) before it reads a body. A body that
 * fails meanwhile (a client resetting its upload, a file gone before it is copied) must fail the
 * write, not emit an 'error' nobody hears: that would end the process (and this test's).
 */
const quietLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/** A stream that fails on the next tick, before any await of the writer has come back. */
function failingAtOnce(): Readable {
  const stream = new Readable({ read() {} });
  process.nextTick(() => stream.destroy(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })));
  return stream;
}

let dir: string;
let storage: Storage;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-stream-errors-'));
  storage = await createStorage(
    { driver: 'local', root: path.join(dir, 'media') },
    { signingSecret: 'x'.repeat(32), logger: quietLogger, maxUploadBytes: 1024 },
  );
});
afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('a body that fails before storage reads it', () => {
  it('fails local storage put with its error, and keeps nothing', async () => {
    await expect(storage.put('uploads/1/a/song.mp3', failingAtOnce(), { contentType: 'audio/mpeg' })).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(storage.put('uploads/1/b/song.mp3', failingAtOnce())).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await filesUnder(path.join(dir, 'media'))).toEqual([]);
  });

  it("fails a new file's write (S3 uploads spool through it), and keeps nothing", async () => {
    const spool = path.join(dir, 'spool');
    await expect(writeNewFile(spool, failingAtOnce())).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(fs.stat(spool)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails local storage put of a file that is gone (its read stream fails while storage awaits)', async () => {
    const { createReadStream } = await import('node:fs');
    await expect(storage.put('uploads/1/c/song.mp3', createReadStream(path.join(dir, 'missing.mp3')))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
