import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PayloadTooLargeError } from '../errors/app-errors.js';
import { stageFile, writeFileAtomic } from './atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function* chunks(count: number, size: number, failAfter?: number) {
  for (let i = 0; i < count; i++) {
    if (failAfter !== undefined && i === failAfter) throw new Error('the source broke');
    yield Buffer.alloc(size, 97 + (i % 26));
  }
}

describe('writeFileAtomic', () => {
  it('writes a buffer, a string and a stream', async () => {
    const target = path.join(dir, 'a.bin');
    expect(await writeFileAtomic(target, Buffer.from('hello'))).toBe(5);
    expect(await fs.readFile(target, 'utf8')).toBe('hello');
    await writeFileAtomic(target, 'replaced');
    expect(await fs.readFile(target, 'utf8')).toBe('replaced');
    expect(await writeFileAtomic(target, Readable.from(chunks(4, 1000)))).toBe(4000);
    expect((await fs.stat(target)).size).toBe(4000);
    expect(await fs.readdir(dir)).toEqual(['a.bin']);
  });

  it('leaves no target and no temp file when the stream fails midway', async () => {
    const target = path.join(dir, 'broken.bin');
    await expect(writeFileAtomic(target, Readable.from(chunks(10, 64 * 1024, 5)))).rejects.toThrow('the source broke');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('keeps the old file when a replacement fails', async () => {
    const target = path.join(dir, 'kept.bin');
    await writeFileAtomic(target, 'old');
    await expect(writeFileAtomic(target, Readable.from(chunks(10, 1024, 3)))).rejects.toThrow();
    expect(await fs.readFile(target, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['kept.bin']);
  });

  it('stops at maxBytes with PayloadTooLargeError and leaves nothing', async () => {
    const target = path.join(dir, 'big.bin');
    await expect(writeFileAtomic(target, Readable.from(chunks(10, 1024)), { maxBytes: 5000 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(writeFileAtomic(target, Buffer.alloc(5001), { maxBytes: 5000 })).rejects.toThrow(/File is too large/);
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await writeFileAtomic(target, Readable.from(chunks(5, 1000)), { maxBytes: 5000 })).toBe(5000);
  });

  it('stages without publishing until commit', async () => {
    const target = path.join(dir, 'staged.bin');
    const staged = await stageFile(target, Buffer.from('x'));
    await expect(fs.stat(target)).rejects.toThrow();
    await staged.commit();
    expect(await fs.readFile(target, 'utf8')).toBe('x');
    const dropped = await stageFile(path.join(dir, 'dropped.bin'), Buffer.from('y'));
    await dropped.discard();
    expect(await fs.readdir(dir)).toEqual(['staged.bin']);
  });
});
