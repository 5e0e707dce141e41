import fs from 'node:fs/promises';
import { SourceClosedError, type ClosableSource } from './byte-source.js';

/** Parsers read a few bytes per MPEG frame: one block read from disk serves thousands of them. */
const BLOCK_BYTES = 1024 * 1024;

/**
 * A file on this machine as the sniffer and the tag parser read it (by offset), through one
 * cached block. The import reads tags here, before anything is stored: a refused file costs
 * the storage nothing.
 */
export async function localFileSource(file: string | fs.FileHandle, size: number): Promise<ClosableSource> {
  // A handle given is the source's from now on: closing the source closes it.
  const handle = typeof file === 'string' ? await fs.open(file, 'r') : file;
  let closed = false;
  let block: { start: number; bytes: Buffer } | undefined;
  const readBlock = async (start: number): Promise<Buffer> => {
    if (block?.start === start) return block.bytes;
    const bytes = Buffer.alloc(Math.min(BLOCK_BYTES, Math.max(0, size - start)));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
    block = { start, bytes: bytes.subarray(0, bytesRead) };
    return block.bytes;
  };
  return {
    size,
    async read(offset, length) {
      if (closed) throw new SourceClosedError('the file is no longer being read');
      const end = Math.min(size, offset + Math.max(0, length));
      const parts: Buffer[] = [];
      for (let at = Math.max(0, offset); at < end;) {
        const start = at - (at % BLOCK_BYTES);
        const bytes = await readBlock(start);
        const part = bytes.subarray(at - start, Math.min(bytes.length, end - start));
        if (part.length === 0) break; // the file shrank under us: what is there is what we read
        parts.push(part);
        at += part.length;
      }
      return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    },
    close() {
      if (closed) return;
      closed = true;
      block = undefined;
      void handle.close().catch(() => undefined);
    },
  };
}
