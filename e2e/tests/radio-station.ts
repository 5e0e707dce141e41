import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
/** Audio bytes between two metadata blocks, as many stations send. */
const METAINT = 16_000;
/** A 128 kbit/s stream is 16 KB a second: sent at twice that after a head start, as a live server would. */
const CHUNK = 4_000;
const CHUNK_EVERY_MS = 125;
const HEAD_START = 64_000;

export interface RadioStationServer {
  /** The endless MP3 stream. */
  streamUrl: string;
  /** What its ICY metadata says is playing. */
  title: string;
  /** Requests that asked for metadata (Encore's now-playing reads), and those that did not (the browser's). */
  metadataRequests(): number;
  audioRequests(): number;
  stop(): Promise<void>;
}

/** An ICY metadata block: a length byte (in 16-byte units), then the text padded with NULs. */
function metadataBlock(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const block = Buffer.alloc(1 + Math.ceil(bytes.length / 16) * 16);
  block[0] = Math.ceil(bytes.length / 16);
  bytes.copy(block, 1);
  return block;
}

/**
 * An internet radio station on 127.0.0.1 for the journeys: a sine made into MP3 by ffmpeg, sent
 * round and round without end; when asked with `Icy-MetaData: 1`, the stream carries
 * `StreamTitle='…'` every METAINT bytes, as Icecast and SHOUTcast do.
 */
export async function startRadioStation(title: string): Promise<RadioStationServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-e2e-radio-'));
  const file = path.join(dir, 'sine.mp3');
  // No ID3 tag and no Xing header: the file's frames can follow each other round the loop.
  await promisify(execFile)(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=10',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-write_xing',
    '0',
    '-id3v2_version',
    '0',
    '-f',
    'mp3',
    file,
  ]);
  const audio = await readFile(file);
  const block = metadataBlock(`StreamTitle='${title.replace(/'/g, '’')}';`);
  let withMetadata = 0;
  let withoutMetadata = 0;
  const open = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/live') {
      response.writeHead(404).end();
      return;
    }
    const metadata = request.headers['icy-metadata'] === '1';
    if (metadata) withMetadata++;
    else withoutMetadata++;
    response.writeHead(200, {
      'content-type': 'audio/mpeg',
      'cache-control': 'no-cache',
      'icy-name': 'Encore Test FM',
      ...(metadata ? { 'icy-metaint': String(METAINT) } : {}),
    });
    open.add(response);
    let at = 0; // where in the file the next audio byte comes from
    let sinceBlock = 0; // audio bytes sent since the last metadata block
    const send = (length: number) => {
      const parts: Buffer[] = [];
      let left = length;
      while (left > 0) {
        const take = Math.min(left, audio.length - at, metadata ? METAINT - sinceBlock : Infinity);
        parts.push(audio.subarray(at, at + take));
        at = (at + take) % audio.length;
        sinceBlock += take;
        left -= take;
        if (metadata && sinceBlock === METAINT) {
          parts.push(block);
          sinceBlock = 0;
        }
      }
      response.write(Buffer.concat(parts));
    };
    send(HEAD_START);
    const timer = setInterval(() => send(CHUNK), CHUNK_EVERY_MS);
    response.on('close', () => {
      clearInterval(timer);
      open.delete(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    streamUrl: `http://127.0.0.1:${port}/live`,
    title,
    metadataRequests: () => withMetadata,
    audioRequests: () => withoutMetadata,
    stop: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
