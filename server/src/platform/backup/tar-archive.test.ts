import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTar, TarWriter } from './tar-archive.js';

const run = promisify(execFile);

describe('tar archive', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'encore-tar-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const longName = `media/songs/${'a'.repeat(40)}/${'Ünïcode long name '.repeat(12)}.mp3`;

  async function write(file: string, source: string) {
    const out = createWriteStream(file);
    const tar = new TarWriter(out);
    await tar.directory('media');
    await tar.buffer('encore-backup.json', Buffer.from('{"a":1}\n'));
    await tar.file(longName, source, 5000, new Date('2024-01-02T03:04:05Z'));
    await tar.buffer('empty', Buffer.alloc(0));
    await tar.finish();
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  it('writes what the system tar reads, long UTF-8 names included, and reads it back', async () => {
    const source = path.join(dir, 'source.bin');
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await writeFile(source, bytes);
    const file = path.join(dir, 'out.tar');
    await write(file, source);
    const { stdout } = await run('tar', ['-tf', file]);
    expect(stdout.split('\n').filter(Boolean)).toEqual(['media/', 'encore-backup.json', longName, 'empty']);

    const target = path.join(dir, 'back.bin');
    const names: string[] = [];
    const count = await readTar(createReadStream(file) as AsyncIterable<Buffer>, async (entry) => {
      names.push(`${entry.type}:${entry.name}:${entry.size}`);
      return entry.name === longName ? open(target, 'w') : undefined;
    });
    expect(count).toBe(4);
    expect(names).toEqual(['directory:media:0', 'file:encore-backup.json:8', `file:${longName}:5000`, 'file:empty:0']);
    expect((await readFile(target)).equals(bytes)).toBe(true);
  });

  it('reads an archive the system tar made, and calls a truncated one truncated', async () => {
    await writeFile(path.join(dir, 'one.txt'), 'one');
    const made = path.join(dir, 'made.tar');
    await run('tar', ['-cf', made, '-C', dir, 'one.txt']);
    const names: string[] = [];
    await readTar(createReadStream(made) as AsyncIterable<Buffer>, async (entry) => void names.push(entry.name));
    expect(names).toEqual(['one.txt']);
    const cut = path.join(dir, 'cut.tar');
    await writeFile(cut, (await readFile(made)).subarray(0, 700));
    await expect(readTar(createReadStream(cut) as AsyncIterable<Buffer>, async () => undefined)).rejects.toThrow(/truncated/);
  });
});
