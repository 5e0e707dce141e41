import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { DEFAULT_CLIP_SETTINGS, type ClipSettings, type ClipStatusResponse } from '@encore/common/clips.contract';
import type { TestApp } from '../support/test-app.js';
import { bearer, fetchUrl } from '../library/library-test-kit.js';

const run = promisify(execFile);

export interface ClipFixtures {
  dir: string;
  /** 4 s MP3: a 440 Hz tone with a click every half second (beats). */
  song: string;
  /** Solid 320 × 240 pictures: red, green, blue, white. */
  red: string;
  green: string;
  blue: string;
  white: string;
  /** 2 s of 320 × 240 test pattern, no audio. */
  video: string;
  /** An M4A named .mp4: no video stream. */
  audioOnlyMp4: string;
  textAsPng: string;
  /** 1 × 200 and 400 × 20: too narrow strips. */
  strip: string;
  wideStrip: string;
  /** A real PNG of 10000 × 8000 pixels (80 megapixels) in about 10 kB: a decompression bomb. */
  hugePixels: string;
}

export async function buildClipFixtures(): Promise<ClipFixtures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-clip-fixtures-'));
  const at = (name: string) => path.join(dir, name);
  const ff = (args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);
  await ff([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=4',
    '-f',
    'lavfi',
    '-i',
    "aevalsrc='if(lt(mod(t,0.5),0.02),0.9*sin(2*PI*2000*t),0)':d=4",
    '-filter_complex',
    'amix=inputs=2',
    '-ac',
    '2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    at('song.mp3'),
  ]);
  for (const [name, colour] of [
    ['red', '#d01010'],
    ['green', '#10a010'],
    ['blue', '#1010d0'],
    ['white', '#ffffff'],
  ] as const) {
    await sharp({ create: { width: 320, height: 240, channels: 3, background: colour } })
      .png()
      .toFile(at(`${name}.png`));
  }
  await ff(['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', at('video.mp4')]);
  await ff(['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', '-f', 'mp4', at('audio-only.mp4')]);
  await writeFile(at('text.png'), 'this is not a picture\n');
  await sharp({ create: { width: 1, height: 200, channels: 3, background: '#808080' } })
    .png()
    .toFile(at('strip.png'));
  await sharp({ create: { width: 400, height: 20, channels: 3, background: '#808080' } })
    .png()
    .toFile(at('wide-strip.png'));
  await writeFile(at('huge-pixels.png'), blackPng(10_000, 8000));
  return {
    dir,
    song: at('song.mp3'),
    red: at('red.png'),
    green: at('green.png'),
    blue: at('blue.png'),
    white: at('white.png'),
    video: at('video.mp4'),
    audioOnlyMp4: at('audio-only.mp4'),
    textAsPng: at('text.png'),
    strip: at('strip.png'),
    wideStrip: at('wide-strip.png'),
    hugePixels: at('huge-pixels.png'),
  };
}

/** A black 1-bit greyscale PNG of any size: its rows of zeros deflate to almost nothing. */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter method, no interlace
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * height); // each row: filter 0, then zero bits
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A song of `seconds` (a quiet tone, small): long renders that a test stops itself. */
export async function buildLongSong(dir: string, seconds: number): Promise<string> {
  const file = path.join(dir, `song-${seconds}s.mp3`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${seconds}`,
    '-ac',
    '1',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '32k',
    file,
  ]);
  return file;
}

/**
 * Small videos (160 × 120, no audio) for colorMatch: `dark` (near black) and `bright` (near
 * white) of 1 s each, looped over a clip; `darkThenBright` 2 s of each.
 */
export async function buildShadeVideos(dir: string): Promise<{ dark: string; bright: string; darkThenBright: string }> {
  const at = (name: string) => path.join(dir, name);
  const encode = (input: string, file: string) =>
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', input, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
  await encode('color=c=0x141414:s=160x120:r=25:d=1', at('dark.mp4'));
  await encode('color=c=0xf0f0f0:s=160x120:r=25:d=1', at('bright.mp4'));
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0x141414:s=160x120:r=25:d=2',
    '-f',
    'lavfi',
    '-i',
    'color=c=0xf0f0f0:s=160x120:r=25:d=2',
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1:a=0',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    at('dark-then-bright.mp4'),
  ]);
  return { dark: at('dark.mp4'), bright: at('bright.mp4'), darkThenBright: at('dark-then-bright.mp4') };
}

/** Two timed words (karaoke): "Hello" 0.5–1.2 s, "world" 1.3–2.2 s. */
export const clipWords = [
  { text: 'Hello', start: 0.5, end: 1.2 },
  { text: 'world', start: 1.3, end: 2.2 },
];

/** The settings field: the defaults at 480p with `clipWords`, and the test's changes. */
export const settingsOf = (overrides: Partial<ClipSettings>) =>
  JSON.stringify({ ...DEFAULT_CLIP_SETTINGS, videoQuality: 'low', words: clipWords, ...overrides });

export const taskIdOf = (response: LightMyRequestResponse) => response.json<{ task_id: string }>().task_id;

export async function clipStatus(t: TestApp, token: string, taskId: string): Promise<ClipStatusResponse> {
  const response = await t.app.inject({ url: `/api/clips/clip-status/${taskId}`, headers: bearer(token) });
  if (response.statusCode !== 200) throw new Error(`clip-status ${response.statusCode}: ${response.body}`);
  return response.json<ClipStatusResponse>();
}

/** A clip's video, fetched as a browser would (through Encore or from the bucket), into `dir`. */
export async function downloadClip(t: TestApp, url: string, dir: string, name: string): Promise<string> {
  const fetched = await fetchUrl(t, url);
  if (fetched.status !== 200) throw new Error(`video ${fetched.status}: ${url}`);
  const file = path.join(dir, name);
  await writeFile(file, fetched.body);
  return file;
}

/** A multipart body as a browser's FormData sends it. */
export async function multipart(
  fields: Record<string, string>,
  files: { name: string; file: string; type?: string }[],
): Promise<{ body: Buffer; contentType: string }> {
  const boundary = `----encore${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${path.basename(file.file)}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(await readFile(file.file), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function createClip(t: TestApp, token: string, fields: Record<string, string>, files: string[]) {
  const { body, contentType } = await multipart(
    fields,
    files.map((file) => ({ name: 'mediaFiles', file })),
  );
  return t.app.inject({ method: 'POST', url: '/api/clips/create-clip', headers: { ...bearer(token), 'content-type': contentType }, payload: body });
}

export async function waitForClip(t: TestApp, token: string, taskId: string, timeoutMs = 120_000): Promise<ClipStatusResponse> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = await clipStatus(t, token, taskId);
    if (status.status === 'done' || status.status === 'error' || status.status === 'cancelled') return status;
    if (Date.now() > until) throw new Error(`render did not finish: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export interface Probe {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate?: string }[];
  format: { duration: string; format_name: string };
}

export async function probe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,r_frame_rate:format=duration,format_name',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** The RGB of one pixel of the frame at `seconds`. */
export async function pixelAt(file: string, seconds: number, x: number, y: number): Promise<[number, number, number]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `format=rgb24,crop=1:1:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer' },
  );
  return [stdout[0] ?? 0, stdout[1] ?? 0, stdout[2] ?? 0];
}

/** The mean RGB of a region of the frame at `seconds`. */
export async function regionMean(file: string, seconds: number, x: number, y: number, width: number, height: number): Promise<[number, number, number]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `format=rgb24,crop=${width}:${height}:${x}:${y},scale=1:1:flags=area`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer' },
  );
  return [stdout[0] ?? 0, stdout[1] ?? 0, stdout[2] ?? 0];
}

/** Mean volume (dB) of the audio between two times. */
export async function meanVolume(file: string, from: number, duration: number): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-ss', String(from), '-t', String(duration), '-i', file, '-af', 'volumedetect', '-f', 'null', '-']);
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  return match ? Number(match[1]) : -Infinity;
}
