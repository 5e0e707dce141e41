import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext } from '@playwright/test';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

export interface SongFixture {
  title: string;
  artist: string;
  /** Length in seconds (a sine tone). */
  seconds: number;
  /** A solid-colour front cover (ffmpeg colour name such as 'red'); none when absent. */
  cover?: string;
  /** Sine frequency, so songs sound different. */
  frequency?: number;
  /** Loud half-second bursts one second apart from 1 s, over a quiet tone: "sung" words at known times. */
  bursts?: number;
}

/** A folder of its own for one test's audio files. */
export function fixtureDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'encore-e2e-audio-'));
}

/** Makes a tagged MP3 (ID3v2.3, optionally with a front cover) with ffmpeg; returns its path. */
export async function makeSong(dir: string, song: SongFixture): Promise<string> {
  const file = path.join(dir, `${song.title.replace(/[^\w-]+/g, '-')}.mp3`);
  const envelope = song.bursts ? `,volume='if(between(t,1,${1 + song.bursts})*lt(mod(t,1),0.5),1,0.01)':eval=frame` : '';
  const audio = ['-f', 'lavfi', '-i', `sine=frequency=${song.frequency ?? 440}:duration=${song.seconds}${envelope}`];
  const cover = song.cover ? ['-f', 'lavfi', '-i', `color=c=${song.cover}:s=320x320:d=1`, '-frames:v', '1'] : [];
  const maps = song.cover ? ['-map', '0:a', '-map', '1:v', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic', '-metadata:s:v', 'comment=Cover (front)'] : [];
  await run(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...audio,
    ...cover,
    ...maps,
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-id3v2_version',
    '3',
    '-metadata',
    `title=${song.title}`,
    '-metadata',
    `artist=${song.artist}`,
    file,
  ]);
  return file;
}

/** Signs a user in through the API and returns the bearer token. */
export async function apiToken(request: APIRequestContext, user: { userName: string; password: string }): Promise<string> {
  const response = await request.post('/api/auth/signin', { data: { userName: user.userName, password: user.password } });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Uploads one file through the API's three steps (presigned URL, PUT, upload-complete); returns the song id. */
export async function uploadViaApi(request: APIRequestContext, token: string, file: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const fileName = path.basename(file);
  const presigned = await request.get('/api/upload/presigned-url', { headers, params: { fileName } });
  if (!presigned.ok()) throw new Error(`presign failed: ${presigned.status()}`);
  const { url, key } = (await presigned.json()) as { url: string; key: string };
  const body = await readFile(file);
  const put = await request.put(url, { headers: { 'content-type': 'audio/mpeg' }, data: body });
  if (!put.ok()) throw new Error(`PUT failed: ${put.status()} ${await put.text()}`);
  const complete = await request.post('/api/upload/upload-complete', {
    headers,
    data: { fileName, fileType: 'audio/mpeg', size: body.length, s3key: key, folderId: 0 },
  });
  if (!complete.ok()) throw new Error(`upload-complete failed: ${complete.status()} ${await complete.text()}`);
  return ((await complete.json()) as { id: number }).id;
}

/**
 * Makes a one-tone audio file of any format ffmpeg writes, chosen by the file's extension
 * (`.flac`, `.ogg`, `.mp3`…), tagged with a title and an artist; returns its path.
 */
export async function makeTone(
  file: string,
  tags: { title: string; artist: string; album?: string },
  seconds = 6,
  frequency = 440,
  sound: { gainDb?: number; codec?: string[] } = {},
): Promise<string> {
  const codec = sound.codec ?? (path.extname(file) === '.ogg' ? ['-c:a', 'libvorbis'] : []);
  const filter = sound.gainDb !== undefined ? ['-af', `volume=${sound.gainDb}dB`] : [];
  await run(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=${seconds}`,
    ...filter,
    ...codec,
    '-metadata',
    `title=${tags.title}`,
    '-metadata',
    `artist=${tags.artist}`,
    ...(tags.album ? ['-metadata', `album=${tags.album}`] : []),
    file,
  ]);
  return file;
}

/** Makes a solid-colour JPEG picture (an album's `cover.jpg`, say); returns its path. */
export async function makePicture(file: string, colour: string, size = 320): Promise<string> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}x${size}:d=1`, '-frames:v', '1', file]);
  return file;
}
