import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LyricsModel } from '@encore/common/lyrics.contract';
import type { TestApp } from '../support/test-app.js';
import { bearer } from '../library/library-test-kit.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/** A real HTTP server on 127.0.0.1 (a protocol's stand-in: LRCLIB, an OpenAI-compatible endpoint, the hub). */
export async function loopbackServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The model hub's file layout on loopback: `/<org>/<model>/resolve/<revision>/<file>`, HEAD and
 * ranged GET, for the given models' files. Files over 100 kB can be cut, stalled or held back
 * after their first part, once each; `down` answers 503 to everything.
 */
export async function hubStandIn(models: Record<string, Record<string, Buffer>>) {
  const state = {
    down: false,
    cutNextBigDownload: false,
    stallNextBigDownload: false,
    holdNextBigDownload: undefined as Promise<void> | undefined,
    ranges: [] as string[],
    gets: 0,
  };
  const server = await loopbackServer(async (request, response) => {
    if (state.down) {
      response.writeHead(503, { 'content-type': 'text/plain' });
      return void response.end('Service Unavailable');
    }
    const match = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(decodeURIComponent((request.url ?? '').split('?')[0]!));
    const file = match ? models[match[1]!]?.[match[2]!] : undefined;
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      return void response.end('Entry not found');
    }
    if (request.method === 'HEAD') {
      response.writeHead(200, { 'content-length': file.length });
      return void response.end();
    }
    state.gets += 1;
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    if (range) {
      state.ranges.push(request.headers.range!);
      const from = Number(range[1]);
      response.writeHead(206, { 'content-length': file.length - from, 'content-range': `bytes ${from}-${file.length - 1}/${file.length}` });
      return void response.end(file.subarray(from));
    }
    response.writeHead(200, { 'content-length': file.length });
    const big = file.length > 100_000;
    if (big && state.cutNextBigDownload) {
      state.cutNextBigDownload = false;
      response.write(file.subarray(0, 120_000), () => setTimeout(() => response.destroy(), 50));
      return;
    }
    if (big && state.stallNextBigDownload) {
      // Part of the file, then silence with the connection left open (a hub that hangs).
      state.stallNextBigDownload = false;
      response.write(file.subarray(0, 120_000));
      return;
    }
    const hold = big ? state.holdNextBigDownload : undefined;
    if (hold) {
      state.holdNextBigDownload = undefined;
      response.write(file.subarray(0, 120_000));
      await hold;
      return void response.end(file.subarray(120_000));
    }
    response.end(file);
  });
  return Object.assign(state, server);
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Audio of known words: espeak-ng speaks each word at a known time over a quiet tone (sox
 * pads and mixes), encoded as MP3 by ffmpeg. Answers the file and each word's start.
 */
export async function spokenWords(dir: string, words: { text: string; at: number }[], seconds: number, name = 'spoken.mp3'): Promise<string> {
  const parts: string[] = [];
  for (const [index, word] of words.entries()) {
    const wav = path.join(dir, `word-${index}.wav`);
    await run('espeak-ng', ['-w', wav, '-s', '170', word.text]);
    const padded = path.join(dir, `padded-${index}.wav`);
    await run('sox', [wav, '-r', '16000', '-c', '1', padded, 'pad', String(word.at)]);
    parts.push(padded);
  }
  const tone = path.join(dir, 'tone.wav');
  await run('sox', ['-n', '-r', '16000', '-c', '1', tone, 'synth', String(seconds), 'sine', '220', 'vol', '0.02']);
  const mixed = path.join(dir, 'mixed.wav');
  // -v 1 on every input: sox -m would otherwise scale each by 1/n.
  await run('sox', ['-m', '-v', '1', tone, ...parts.flatMap((part) => ['-v', '1', part]), mixed, 'trim', '0', String(seconds)]);
  const out = path.join(dir, name);
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-i', mixed, '-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '96k', out]);
  return out;
}

/** A sine of `seconds` as a tagged MP3 (title and artist), made by ffmpeg. */
export async function toneMp3(
  dir: string,
  name: string,
  seconds: number,
  tags: { title: string; artist: string } = { title: 'Ten Seconds', artist: 'Tester' },
): Promise<string> {
  const out = path.join(dir, name);
  await run(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${seconds}`,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    '-metadata',
    `title=${tags.title}`,
    '-metadata',
    `artist=${tags.artist}`,
    out,
  ]);
  return out;
}

export async function tempDir(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-lyrics-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function getLyrics(t: TestApp, token: string, songId: number): Promise<LyricsModel> {
  const response = await t.app.inject({ url: `/api/files/${songId}/lyrics`, headers: bearer(token) });
  if (response.statusCode !== 200) throw new Error(`GET lyrics: ${response.statusCode} ${response.body}`);
  return response.json<LyricsModel>();
}

export function putLyrics(t: TestApp, token: string, songId: number, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: `/api/files/${songId}/lyrics`, headers: bearer(token), payload: payload as Record<string, unknown> });
}
