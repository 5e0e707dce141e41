import type { Readable } from 'node:stream';
import type { Storage } from '../storage/storage.types.js';

/**
 * A file that can be read at any offset: what the sniffer and the tag parser need to look past
 * an ID3 tag of any size and at tags kept at the end (APEv2, ID3v1, Lyrics3).
 */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file, none past it). */
  read(offset: number, length: number): Promise<Buffer>;
}

/** Stops a StorageSource: reads after close reject, so a parser that overran its time stops. */
export interface ClosableSource extends ByteSource {
  close(): void;
}

export class SourceClosedError extends Error {}

/** Ranged reads go to storage one block at a time; parsers read a few bytes per MPEG frame. */
const BLOCK_BYTES = 1024 * 1024;
/** Enough for a sequential scan plus the header and tail blocks parsers come back to. */
const CACHED_BLOCKS = 4;

/** An object in storage (local disk or S3) read by ranges, a block at a time, never as a whole. */
export function storageSource(storage: Storage, key: string, size: number, blockBytes = BLOCK_BYTES): ClosableSource {
  return new BlockCache(size, blockBytes, async (start, end) => readAll((await storage.get(key, { start, end })).stream, end - start + 1));
}

/** The bytes of a buffer (tests, and callers that already hold the file). */
export function bufferSource(buffer: Buffer): ClosableSource {
  let closed = false;
  return {
    size: buffer.length,
    read: async (offset, length) => {
      if (closed) throw new SourceClosedError('the file is no longer being read');
      return buffer.subarray(Math.min(offset, buffer.length), Math.min(offset + length, buffer.length));
    },
    close: () => {
      closed = true;
    },
  };
}

class BlockCache implements ClosableSource {
  private readonly blocks = new Map<number, Promise<Buffer>>();
  private closed = false;

  constructor(
    readonly size: number,
    private readonly blockBytes: number,
    private readonly fetch: (start: number, end: number) => Promise<Buffer>,
  ) {}

  async read(offset: number, length: number): Promise<Buffer> {
    const start = Math.max(0, Math.min(offset, this.size));
    const end = Math.min(this.size, start + Math.max(0, length));
    const parts: Buffer[] = [];
    for (let at = start; at < end;) {
      const index = Math.floor(at / this.blockBytes);
      const block = await this.block(index);
      const from = at - index * this.blockBytes;
      const part = block.subarray(from, Math.min(block.length, from + end - at));
      if (part.length === 0) break; // the object shrank under us: what is there is what we read
      parts.push(part);
      at += part.length;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  close(): void {
    this.closed = true;
    this.blocks.clear();
  }

  private block(index: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new SourceClosedError('the file is no longer being read'));
    const cached = this.blocks.get(index);
    if (cached) {
      // Most recently used last: the oldest goes first when the cache is full.
      this.blocks.delete(index);
      this.blocks.set(index, cached);
      return cached;
    }
    const start = index * this.blockBytes;
    const loading = this.fetch(start, Math.min(this.size, start + this.blockBytes) - 1);
    loading.catch(() => {
      if (this.blocks.get(index) === loading) this.blocks.delete(index);
    });
    this.blocks.set(index, loading);
    if (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    return loading;
  }
}

async function readAll(stream: Readable, expected: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= expected) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, length).subarray(0, expected);
}
