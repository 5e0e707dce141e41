import { PassThrough, type Readable } from 'node:stream';

/**
 * A zip of files written as it is read (nothing held in memory but one chunk): stored entries
 * (audio is compressed already), UTF-8 names, each entry's CRC-32 and sizes in a data descriptor
 * after its bytes and in the central directory at the end. No ZIP64: at most 4 GiB in all (the
 * caller checks the sizes first) and 65,535 entries.
 */
export interface ZipEntry {
  name: string;
  size: number;
  open: () => Promise<Readable>;
}

export const ZIP_LIMIT_BYTES = 0xffff_fffe;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** The DOS date and time of `at` (local fields as UTC: zips carry no zone). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

const FLAGS = 0x0808; // bit 3: sizes and CRC in a data descriptor; bit 11: UTF-8 names

export function zipStream(entries: readonly ZipEntry[], at = new Date()): Readable {
  const out = new PassThrough();
  const { time, date } = dosDateTime(at);
  void (async () => {
    let offset = 0;
    const central: Buffer[] = [];
    const write = async (chunk: Buffer) => {
      offset += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    };
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const start = offset;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(FLAGS, 6);
      local.writeUInt16LE(0, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt16LE(name.length, 26);
      await write(Buffer.concat([local, name]));
      let crc = 0;
      let size = 0;
      const source = await entry.open();
      for await (const chunk of source as AsyncIterable<Buffer>) {
        crc = crc32(crc, chunk);
        size += chunk.length;
        await write(chunk);
      }
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      await write(descriptor);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(FLAGS, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(time, 12);
      header.writeUInt16LE(date, 14);
      header.writeUInt32LE(crc, 16);
      header.writeUInt32LE(size, 20);
      header.writeUInt32LE(size, 24);
      header.writeUInt16LE(name.length, 28);
      header.writeUInt32LE(start, 42);
      central.push(header, name);
    }
    const directory = Buffer.concat(central);
    const directoryOffset = offset;
    await write(directory);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(directoryOffset, 16);
    out.end(end);
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
