import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';

/**
 * The POSIX tar format (ustar, with pax headers for long names), enough for Encore's backups:
 * regular files and folders. A backup is a tar any `tar` reads (`tar tzf backup.tar.gz`), and
 * both ends stream, so an archive of a large library never sits in memory.
 */
const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK);

export interface TarEntry {
  /** A relative path with `/` separators; folders end without a slash. */
  name: string;
  type: 'file' | 'directory';
  size: number;
  mode: number;
  mtime: Date;
}

/** Writes entries to `out` one after another; `finish` ends the archive (not `out`). */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  async directory(name: string, mtime = new Date()): Promise<void> {
    await this.header({ name, type: 'directory', size: 0, mode: 0o755, mtime });
  }

  /** A file from bytes in memory. */
  async buffer(name: string, body: Buffer, mtime = new Date(), mode = 0o644): Promise<void> {
    await this.header({ name, type: 'file', size: body.length, mode, mtime });
    await this.write(body);
    await this.pad(body.length);
  }

  /**
   * A file from disk, of the size it had when listed: a file that changed size since is an
   * error (the callers copy files that are never rewritten in place).
   */
  async file(name: string, file: string, size: number, mtime: Date, mode = 0o644): Promise<void> {
    await this.header({ name, type: 'file', size, mode, mtime });
    let written = 0;
    for await (const chunk of createReadStream(file, { start: 0, end: Math.max(0, size - 1) }) as AsyncIterable<Buffer>) {
      if (size === 0) break;
      written += chunk.length;
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${file} changed while it was archived (${written} of ${size} bytes)`);
    await this.pad(size);
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }

  private async header(entry: TarEntry): Promise<void> {
    const name = entry.type === 'directory' ? `${entry.name}/` : entry.name;
    const split = splitName(name);
    if (!split) {
      // A pax extended header carries the whole path; the ustar name that follows is a stand-in.
      const record = paxRecord('path', name);
      await this.write(headerBlock({ name: 'PaxHeader', prefix: '', size: record.length, mode: 0o644, mtime: entry.mtime, typeflag: 'x' }));
      await this.write(record);
      await this.pad(record.length);
    }
    const { prefix, base } = split ?? { prefix: '', base: name.slice(-99) };
    await this.write(
      headerBlock({ name: base, prefix, size: entry.size, mode: entry.mode, mtime: entry.mtime, typeflag: entry.type === 'directory' ? '5' : '0' }),
    );
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest !== 0) await this.write(ZEROS.subarray(0, BLOCK - rest));
  }

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.out.write(chunk)) {
        resolve();
        return;
      }
      const onDrain = () => {
        this.out.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        this.out.off('drain', onDrain);
        reject(error);
      };
      this.out.once('drain', onDrain);
      this.out.once('error', onError);
    });
  }
}

function splitName(name: string): { prefix: string; base: string } | undefined {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let at = name.indexOf('/'); at !== -1; at = name.indexOf('/', at + 1)) {
    const prefix = name.slice(0, at);
    const base = name.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100 && base !== '') return { prefix, base };
  }
  return undefined;
}

/** `<length> <key>=<value>\n`, where the length counts itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  let record = `${length}${body}`;
  while (Buffer.byteLength(record) !== length) {
    length = Buffer.byteLength(record);
    record = `${length}${body}`;
  }
  return Buffer.from(record);
}

function headerBlock(h: { name: string; prefix: string; size: number; mode: number; mtime: Date; typeflag: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(h.name, 0, 100);
  octal(block, 100, 8, h.mode);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, h.size);
  octal(block, 136, 12, Math.floor(h.mtime.getTime() / 1000));
  block.fill(' ', 148, 156);
  block.write(h.typeflag, 156, 1);
  block.write('ustar\u000000', 257, 8);
  block.write(h.prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8);
  return block;
}

function octal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length);
}

/** Where an entry's bytes go: an open file (FileHandle fits), or a reader of them. */
export interface TarSink {
  write(chunk: Buffer): Promise<unknown>;
  close(): Promise<void>;
}

/** What `readTar` hands each entry: its header; it answers where the bytes go (files only). */
export type EntryHandler = (entry: TarEntry) => Promise<TarSink | undefined>;

/**
 * Reads a tar from `source`, calling `onEntry` for every file and folder; a file's bytes are
 * written to the sink it returns (closed here), or skipped when it returns undefined.
 * A truncated or corrupt archive is an error.
 */
export async function readTar(source: AsyncIterable<Buffer>, onEntry: EntryHandler): Promise<number> {
  const reader = new BlockReader(source);
  let paxPath: string | undefined;
  let entries = 0;
  for (;;) {
    const block = await reader.take(BLOCK);
    if (!block) throw new Error('The archive ends before its end marker: it is truncated.');
    if (block.every((byte) => byte === 0)) return entries;
    if (!checksumMatches(block)) throw new Error('The archive is damaged: a header does not match its checksum.');
    const typeflag = String.fromCharCode(block[156] ?? 0);
    const size = parseOctal(block.subarray(124, 136));
    if (typeflag === 'x' || typeflag === 'L') {
      const body = await reader.take(size);
      await reader.take(padding(size));
      if (!body) throw new Error('The archive is truncated.');
      paxPath = typeflag === 'L' ? cString(body) : (paxValue(body.toString('utf8'), 'path') ?? paxPath);
      continue;
    }
    const prefix = cString(block.subarray(345, 500));
    const name = paxPath ?? (prefix ? `${prefix}/${cString(block.subarray(0, 100))}` : cString(block.subarray(0, 100)));
    paxPath = undefined;
    const type = typeflag === '5' ? 'directory' : typeflag === '0' || typeflag === '\u0000' ? 'file' : undefined;
    const entry: TarEntry = {
      name: name.replace(/^\/+/, '').replace(/\/+$/, ''),
      type: type ?? 'file',
      size,
      mode: parseOctal(block.subarray(100, 108)),
      mtime: new Date(parseOctal(block.subarray(136, 148)) * 1000),
    };
    const handle = type ? await onEntry(entry) : undefined;
    try {
      let left = size;
      while (left > 0) {
        const chunk = await reader.takeUpTo(left);
        if (!chunk) throw new Error('The archive is truncated.');
        left -= chunk.length;
        if (handle) await handle.write(chunk);
      }
    } finally {
      await handle?.close();
    }
    await reader.take(padding(size));
    if (type) entries += 1;
  }
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function checksumMatches(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  return sum === parseOctal(block.subarray(148, 156));
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8');
}

function parseOctal(bytes: Buffer): number {
  const text = cString(bytes).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function paxValue(records: string, key: string): string | undefined {
  for (const line of records.split('\n')) {
    const match = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (match?.[1] === key) return match[2];
  }
  return undefined;
}

/** Hands out exact byte counts from a stream of chunks of any size. */
class BlockReader {
  private readonly iterator: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Exactly `size` bytes, or undefined at the end of the stream. */
  async take(size: number): Promise<Buffer | undefined> {
    while (this.pending.length < size) {
      const next = await this.iterator.next();
      if (next.done) return undefined;
      this.pending = this.pending.length === 0 ? next.value : Buffer.concat([this.pending, next.value]);
    }
    const out = this.pending.subarray(0, size);
    this.pending = this.pending.subarray(size);
    return out;
  }

  /** Between 1 and `size` bytes, or undefined at the end of the stream. */
  async takeUpTo(size: number): Promise<Buffer | undefined> {
    if (this.pending.length === 0) {
      const next = await this.iterator.next();
      if (next.done) return undefined;
      this.pending = next.value;
    }
    const out = this.pending.subarray(0, size);
    this.pending = this.pending.subarray(out.length);
    return out;
  }
}

/**
 * Creates the folder or file `name` of a tar entry below `root` (a file opened for its bytes,
 * never over an existing one); a name leading out of `root` is refused with `refuse`'s error.
 */
export async function placeTarEntry(
  root: string,
  name: string,
  entry: TarEntry,
  refuse: (message: string) => Error = (message) => new Error(message),
): Promise<TarSink | undefined> {
  const target = path.resolve(root, name);
  if (name === '' || (target !== root && !target.startsWith(`${root}${path.sep}`))) throw refuse(`The archive names a path outside its folder: ${name}`);
  if (entry.type === 'directory') {
    await mkdir(target, { recursive: true });
    return undefined;
  }
  await mkdir(path.dirname(target), { recursive: true });
  return open(target, 'wx', entry.mode & 0o777 || 0o644);
}
