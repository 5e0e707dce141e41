import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/**
 * Files of every format a music folder takes, and the odd ones of issue 37, made on the spot by
 * ffmpeg's own encoders and muxers, iconv, or (DSF, which nothing here encodes) by hand from
 * the format's documented layout. None is made the way Encore reads it.
 */
export interface FormatFiles {
  dir: string;
  /** Two seconds of a tone in each format ffmpeg here writes, by the extension a folder knows it by. */
  byExtension: Record<string, string>;
  /** FLAC in an Ogg container (`.ogg`), as some rippers write it. */
  oggFlac: string;
  /** Speex in an Ogg container, named `.ogg`. */
  oggSpeex: string;
  /** WebM (Opus) written to a pipe: no duration header, no cues. */
  webmWithoutDuration: string;
  /** WMA with an attached cover picture and LRC lyrics in `WM/Lyrics`. */
  wmaWithCoverAndLyrics: string;
  /** Ogg Vorbis with ODD_LRC in its `LYRICS` tag. */
  oggWithLyrics: string;
  /** MPEG audio named `.mp1`, a Broadcast Wave (`.bwf`) and an MP3 with no extension at all: extensions a folder does not list. */
  mp1: string;
  bwf: string;
  noExtension: string;
  /** A UTF-16 (with byte order mark) LRC: its first bytes are FF FE. */
  utf16Lrc: string;
  /** An LRC in GBK. */
  gbkLrc: string;
  cleanup(): Promise<void>;
}

/** The text of the LRC files above (UTF-16 and GBK), and what it reads as. */
export const CHINESE_LRC = '[ti:月亮代表我的心]\r\n[00:00.40]你问我爱你有多深\r\n[00:01.20]我爱你有几分\r\n';
export const CHINESE_LINES = ['你问我爱你有多深', '我爱你有几分'];
/** LRC from other projects, as a WMA's `WM/Lyrics` carries it: an impossible time, an untimed line, a closing blank tag, a word time inside a line. */
export const ODD_LRC = '[00:00.20]First line\n[02:83.37]Impossible time\nNo time at all\n[00:00.90]Let it be[00:01.30]ADLIB\n[00:01.60]\n';

async function ffmpeg(args: string[]): Promise<void> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

const TONE = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=44100', '-ac', '1'];

/** ffmpeg's arguments for each extension a music folder takes that ffmpeg here can write. */
const WRITERS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame'],
  mp2: ['-c:a', 'mp2', '-f', 'mp2'],
  // No encoder here writes MPEG layer I: layer II under the names a folder also takes.
  mp1: ['-c:a', 'mp2', '-f', 'mp2'],
  mpa: ['-c:a', 'mp2', '-f', 'mp2'],
  flac: ['-c:a', 'flac'],
  ogg: ['-c:a', 'libvorbis'],
  oga: ['-c:a', 'flac', '-f', 'ogg'],
  opus: ['-c:a', 'libopus'],
  spx: ['-ar', '16000', '-c:a', 'libspeex', '-f', 'ogg'],
  m4a: ['-c:a', 'aac'],
  m4b: ['-c:a', 'alac', '-f', 'ipod'],
  mp4: ['-c:a', 'aac', '-f', 'mp4'],
  aac: ['-c:a', 'aac', '-f', 'adts'],
  wav: ['-c:a', 'pcm_s16le'],
  bwf: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  aif: ['-c:a', 'pcm_s16be', '-f', 'aiff'],
  aiff: ['-c:a', 'pcm_s16be', '-f', 'aiff'],
  aifc: ['-c:a', 'pcm_s16be', '-f', 'aiff'],
  wma: ['-c:a', 'wmav2'],
  asf: ['-c:a', 'wmav1', '-f', 'asf'],
  wv: ['-c:a', 'wavpack'],
  mka: ['-c:a', 'flac', '-f', 'matroska'],
  webm: ['-c:a', 'libopus', '-f', 'webm'],
  weba: ['-c:a', 'libopus', '-f', 'webm'],
};

/** Extensions a folder takes that no encoder here writes (Monkey's Audio, Musepack, DSDIFF): their demuxers are listed instead. */
export const UNWRITTEN_DEMUXERS: Record<string, string> = { ape: 'ape', mpc: 'mpc', mp_: 'mpc', dff: 'iff' };

export async function buildFormatFiles(): Promise<FormatFiles> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-format-files-'));
  const at = (name: string) => path.join(dir, name);
  const byExtension: Record<string, string> = {};
  await Promise.all(
    Object.entries(WRITERS).map(async ([ext, args]) => {
      byExtension[ext] = at(`tone.${ext}`);
      await ffmpeg([...TONE, ...args, byExtension[ext]]);
    }),
  );
  byExtension['dsf'] = at('tone.dsf');
  await writeFile(byExtension['dsf'], dsf(2));

  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=64x64:d=1', '-frames:v', '1', at('cover.jpg')]);
  const files = {
    oggFlac: at('ogg-flac.ogg'),
    oggSpeex: at('speex.ogg'),
    webmWithoutDuration: at('piped.webm'),
    wmaWithCoverAndLyrics: at('covered.wma'),
    oggWithLyrics: at('lyrics-tag.ogg'),
    mp1: at('layer-one.mp1'),
    bwf: at('broadcast.bwf'),
    noExtension: at('no-extension'),
    utf16Lrc: at('utf16.lrc'),
    gbkLrc: at('gbk.lrc'),
  };
  await Promise.all([
    ffmpeg([...TONE, '-c:a', 'flac', '-f', 'ogg', files.oggFlac]),
    ffmpeg([...TONE, '-ar', '16000', '-c:a', 'libspeex', '-f', 'ogg', files.oggSpeex]),
    ffmpeg([...TONE, '-c:a', 'pcm_s16le', '-f', 'wav', files.bwf]),
    ffmpeg([...TONE, '-c:a', 'libvorbis', '-metadata', `LYRICS=${ODD_LRC}`, files.oggWithLyrics]),
    ffmpeg([...TONE, '-c:a', 'libmp3lame', '-f', 'mp3', files.noExtension]),
    ffmpeg([
      ...TONE,
      ...['-i', at('cover.jpg'), '-map', '0:a', '-map', '1:v', '-c:a', 'wmav2', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic'],
      ...['-metadata', 'title=Covered WMA', '-metadata', `WM/Lyrics=${ODD_LRC}`, files.wmaWithCoverAndLyrics],
    ]),
  ]);
  // MPEG audio named .mp1, as old files are (no encoder here writes layer I itself).
  await writeFile(files.mp1, await readFile(byExtension['mp2']!));
  // WebM to a pipe: the muxer cannot seek back to write the duration or the cues.
  const { stdout } = await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', ...TONE, '-c:a', 'libopus', '-f', 'webm', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 16 * 1024 * 1024,
  });
  await writeFile(files.webmWithoutDuration, stdout);
  await writeFile(files.utf16Lrc, await iconv(CHINESE_LRC, 'UTF-16'));
  await writeFile(files.gbkLrc, await iconv(CHINESE_LRC, 'GBK'));
  return { dir, byExtension, ...files, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function iconv(text: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('iconv', ['-f', 'UTF-8', '-t', encoding], { encoding: 'buffer' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin?.end(text);
  });
}

/**
 * A DSF file (Sony's DSD Stream File, version 1): a `DSD ` chunk, a `fmt ` chunk (mono, 2.8224 MHz,
 * one bit a sample, 4096-byte blocks) and a `data` chunk of alternating bits (DSD's silence
 * pattern) with a slow density change, so it decodes to something.
 */
function dsf(seconds: number): Buffer {
  const rate = 2_822_400;
  const block = 4096;
  const blocks = Math.ceil((rate * seconds) / 8 / block);
  const data = Buffer.alloc(blocks * block);
  for (let i = 0; i < data.length; i += 1) data[i] = Math.floor(i / 64) % 2 === 0 ? 0x69 : 0x96;
  const head = Buffer.alloc(28 + 52 + 12);
  head.write('DSD ', 0, 'latin1');
  head.writeBigUInt64LE(28n, 4);
  head.writeBigUInt64LE(BigInt(head.length + data.length), 12);
  head.writeBigUInt64LE(0n, 20); // no metadata chunk
  head.write('fmt ', 28, 'latin1');
  head.writeBigUInt64LE(52n, 32);
  head.writeUInt32LE(1, 40); // format version
  head.writeUInt32LE(0, 44); // DSD raw
  head.writeUInt32LE(1, 48); // channel type: mono
  head.writeUInt32LE(1, 52); // channels
  head.writeUInt32LE(rate, 56);
  head.writeUInt32LE(1, 60); // bits per sample
  head.writeBigUInt64LE(BigInt(blocks * block * 8), 64); // samples per channel
  head.writeUInt32LE(block, 72);
  head.write('data', 80, 'latin1');
  head.writeBigUInt64LE(BigInt(12 + data.length), 84);
  return Buffer.concat([head, data]);
}
