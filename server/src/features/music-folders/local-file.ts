import type { FileHandle } from 'node:fs/promises';
import { localFileSource } from '../../platform/media/local-file-source.js';
import type { ClosableSource } from '../../platform/media/byte-source.js';

/** Runs `use` with the file `open` opens as a byte source (sniffer, tag parser), closed when `use` settles. */
export async function localFile<T>(open: () => Promise<FileHandle>, size: number, use: (source: ClosableSource) => Promise<T>): Promise<T> {
  const source = await localFileSource(await open(), size);
  try {
    return await use(source);
  } finally {
    source.close();
  }
}
