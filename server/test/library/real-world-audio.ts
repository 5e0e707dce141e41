import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { id3v23 } from '../support/audio-fixtures.js';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/**
 * Files shaped like the odd ones of real collections (issue 25), made on the spot: audio by sox
 * and ffmpeg's encoders, the odd parts (junk, large tags, end tags, brands) as hand-built bytes.
 * None is made the way Encore reads it.
 */
export interface RealWorldAudio {
  dir: string;
  /** 3 s of MP3 cut 777 bytes in: it starts inside a frame, as a file cut from a stream does. */
  mp3AfterPartialFrame: string;
  /** 3 s of MP3 behind 1,500 bytes of junk (a broken download's leftovers) and no tag. */
  mp3AfterJunk: string;
  /** 3 s of FLAC behind a 100 KB ID3v2.3 tag (a PRIV frame), larger than any sniff window. */
  flacBehindLargeId3: string;
  /** 3 s of AAC in a 3GPP file: major brand `3gp4`, `isom` only among the compatible ones. */
  aacIn3gp: string;
  /** 2 s of MP3 with an APEv2 tag at its end (title, artist, album) and nothing in front. */
  mp3WithApeTag: string;
  /** 2 s of MP3 with only an ID3v1 tag at its end (title, artist, album, year). */
  mp3WithId3v1: string;
  cleanup(): Promise<void>;
}

export const END_TAGS = { title: 'Tail Tag Song', artist: 'The Enders', album: 'Last Bytes' } as const;

async function ffmpeg(args: string[]): Promise<void> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

async function sox(args: string[]): Promise<void> {
  await run('sox', args);
}

export async function buildRealWorldAudio(): Promise<RealWorldAudio> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-real-audio-'));
  const at = (name: string) => path.join(dir, name);
  await sox(['-n', '-r', '44100', '-c', '2', '-b', '16', at('tone.wav'), 'synth', '3', 'sine', '330', 'sine', '495', 'vol', '0.5']);
  await sox(['-n', '-r', '44100', '-c', '1', '-b', '16', at('short.wav'), 'synth', '2', 'sine', '440', 'vol', '0.5']);
  const untaggedMp3 = ['-map_metadata', '-1', '-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '0', '-write_id3v1', '0'];
  await ffmpeg(['-i', at('tone.wav'), ...untaggedMp3, at('tone.mp3')]);
  await ffmpeg(['-i', at('short.wav'), ...untaggedMp3, at('short.mp3')]);
  await sox([at('tone.wav'), at('tone.flac')]);
  await ffmpeg(['-i', at('tone.wav'), '-c:a', 'aac', '-b:a', '64k', '-f', '3gp', at('recording.3gp')]);
  const mp3 = await readFile(at('tone.mp3'));
  const short = await readFile(at('short.mp3'));

  const files = {
    mp3AfterPartialFrame: at('partial-frame.mp3'),
    mp3AfterJunk: at('junk.mp3'),
    flacBehindLargeId3: at('large-id3.flac'),
    aacIn3gp: at('recording.3gp'),
    mp3WithApeTag: at('ape.mp3'),
    mp3WithId3v1: at('id3v1.mp3'),
  };
  await writeFile(files.mp3AfterPartialFrame, mp3.subarray(777));
  await writeFile(files.mp3AfterJunk, Buffer.concat([Buffer.from('<html>502 Bad Gateway</html>\n'.repeat(50)).subarray(0, 1500), mp3]));
  const priv = Buffer.concat([Buffer.from('PRIV'), u32(100_000 + 12), Buffer.alloc(2), Buffer.from('www.test\0'), randomBytes(100_003)]);
  await writeFile(files.flacBehindLargeId3, Buffer.concat([id3v23([priv]), await readFile(at('tone.flac'))]));
  await writeFile(files.mp3WithApeTag, Buffer.concat([short, apeV2({ Title: END_TAGS.title, Artist: END_TAGS.artist, Album: END_TAGS.album })]));
  await writeFile(files.mp3WithId3v1, Buffer.concat([short, id3v1(END_TAGS.title, END_TAGS.artist, END_TAGS.album, '2019')]));
  return { dir, ...files, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** An APEv2 tag (header, UTF-8 items, footer) as foobar2000 and mp3gain append it. */
export function apeV2(items: Record<string, string>): Buffer {
  const fields = Object.entries(items).map(([key, value]) => {
    const text = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32LE(text.length, 0);
    head.writeUInt32LE(0, 4); // flags: UTF-8 text
    return Buffer.concat([head, Buffer.from(`${key}\0`, 'latin1'), text]);
  });
  const body = Buffer.concat(fields);
  const block = (isHeader: boolean) => {
    const bytes = Buffer.alloc(32);
    bytes.write('APETAGEX', 0, 'latin1');
    bytes.writeUInt32LE(2000, 8);
    bytes.writeUInt32LE(body.length + 32, 12); // items and footer
    bytes.writeUInt32LE(fields.length, 16);
    bytes.writeUInt32LE(((1 << 31) | (isHeader ? 1 << 29 : 0)) >>> 0, 20); // has a header; this is it
    return bytes;
  };
  return Buffer.concat([block(true), body, block(false)]);
}

/** The 128-byte ID3v1 tag at a file's end. */
export function id3v1(title: string, artist: string, album: string, year: string): Buffer {
  const tag = Buffer.alloc(128);
  tag.write('TAG', 0, 'latin1');
  tag.write(title.slice(0, 30), 3, 'latin1');
  tag.write(artist.slice(0, 30), 33, 'latin1');
  tag.write(album.slice(0, 30), 63, 'latin1');
  tag.write(year.slice(0, 4), 93, 'latin1');
  tag[127] = 255; // no genre
  return tag;
}
