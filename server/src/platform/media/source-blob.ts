import { ReadableStream } from 'node:stream/web';
import type { ByteSource } from './byte-source.js';

/** What one `stream()` read asks for: the parser never streams a blob, but a Blob must. */
const STREAM_CHUNK = 256 * 1024;

/**
 * A ByteSource as a Blob, so music-metadata's `parseBlob` reads it at any offset (and so looks
 * for tags at the end) through ranged reads instead of a stream from the start. A slice reads
 * nothing until asked.
 */
export class SourceBlob implements Blob {
  readonly size: number;

  constructor(
    private readonly source: ByteSource,
    readonly type: string,
    private readonly start = 0,
    end = source.size,
  ) {
    this.size = Math.max(0, Math.min(end, source.size) - start);
  }

  slice(start = 0, end = this.size, type = this.type): SourceBlob {
    const from = this.start + clampIndex(start, this.size);
    const to = this.start + clampIndex(end, this.size);
    return new SourceBlob(this.source, type, from, Math.max(from, to));
  }

  /** A copy: the source may hand out views of its cached blocks, which a reader must not change. */
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.source.read(this.start, this.size));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const read = await this.source.read(this.start, this.size);
    const copy = new ArrayBuffer(read.byteLength);
    new Uint8Array(copy).set(read);
    return copy;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  stream(): ReadableStream<Uint8Array> {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (at >= this.size) {
          controller.close();
          return;
        }
        const chunk = await this.slice(at, at + STREAM_CHUNK).bytes();
        at += Math.max(1, chunk.byteLength);
        controller.enqueue(chunk);
      },
    });
  }
}

/** Blob.slice's rule: negative counts from the end; the result is clamped to 0..size. */
function clampIndex(index: number, size: number): number {
  const whole = Math.trunc(index);
  return whole < 0 ? Math.max(0, size + whole) : Math.min(whole, size);
}
