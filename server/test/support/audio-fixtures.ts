import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';

/**
 * Audio files for the tests, made on the spot with ffmpeg and sharp (never downloaded): short
 * sines in every accepted format, with tags and cover art, and the bad inputs of issue 3.
 */
export interface AudioFixtures {
  dir: string;
  /** ID3v2.3: title 'Café Ünïcode', artist 'The Testers', album, album artist, genre, year, track 3/10, disc 1/2, lyrics, a back cover (blue) then a front cover (red). */
  taggedMp3: string;
  /** No tags at all: the display name comes from the file name. */
  plainMp3: string;
  /** Ogg/Opus with title and artist. */
  opus: string;
  /** Ogg/Vorbis with a title. */
  vorbis: string;
  /** AAC in MP4 (M4A) with title, artist, album and a JPEG cover. */
  m4a: string;
  /** FLAC with title, artist, lyrics and a JPEG cover. */
  flac: string;
  /** PCM WAV with a RIFF INFO title. */
  wav: string;
  /** The plain MP3 cut at 55%: still has frames, just fewer. */
  truncatedMp3: string;
  /** The tagged MP3 with its ID3 size bytes claiming a 256 MB tag. */
  malformedTagsMp3: string;
  /** The tagged MP3 with its ID3 size bytes not even syncsafe (0xFF). */
  brokenHeaderMp3: string;
  /** An MP3 whose front cover is a 20000 x 20000 PNG of ~50 KB (a decompression bomb). */
  bombCoverMp3: string;
  /** A copy of /bin/ls named like a song. */
  executable: string;
  /** Plain text named .mp3. */
  textAsMp3: string;
  /** An MP4 film (video and audio): not an audio file. */
  videoMp4: string;
  /** Random bytes of the given size, for limit tests. */
  oversized(bytes: number): Promise<string>;
  cleanup(): Promise<void>;
}

export const TAGGED = {
  title: 'Café Ünïcode',
  artist: 'The Testers',
  album: 'Fixture Album',
  albumArtist: 'Various Testers',
  genre: 'Electronic',
  year: 2024,
  track: 3,
  disc: 1,
  lyrics: 'First line of the song\nSecond line of the song',
} as const;

async function ffmpeg(args: string[]): Promise<void> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

const sine = (seconds: number, frequency = 440) => ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}:sample_rate=44100`];

export async function buildAudioFixtures(): Promise<AudioFixtures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-audio-'));
  const at = (name: string) => path.join(dir, name);
  const front = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#d01010' } })
    .jpeg()
    .toBuffer();
  const back = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#1010d0' } })
    .jpeg()
    .toBuffer();
  await writeFile(at('front.jpg'), front);

  const plainMp3 = at('Plain Song.mp3');
  await ffmpeg([...sine(2), '-map_metadata', '-1', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '0', '-write_id3v1', '0', plainMp3]);
  const plain = await readFile(plainMp3);

  const taggedMp3 = at('tagged.mp3');
  const tag = id3v23([
    textFrame('TIT2', TAGGED.title),
    textFrame('TPE1', TAGGED.artist),
    textFrame('TALB', TAGGED.album),
    textFrame('TPE2', TAGGED.albumArtist),
    textFrame('TCON', TAGGED.genre),
    textFrame('TYER', String(TAGGED.year)),
    textFrame('TRCK', `${TAGGED.track}/10`),
    textFrame('TPOS', `${TAGGED.disc}/2`),
    lyricsFrame(TAGGED.lyrics),
    pictureFrame(back, 'image/jpeg', 4),
    pictureFrame(front, 'image/jpeg', 3),
  ]);
  const tagged = Buffer.concat([tag, plain]);
  await writeFile(taggedMp3, tagged);

  const malformed = Buffer.from(tagged);
  malformed.set([0x7f, 0x7f, 0x7f, 0x7f], 6);
  const brokenHeader = Buffer.from(tagged);
  brokenHeader.set([0xff, 0xff, 0xff, 0xff], 6);

  const opus = at('opus.ogg');
  await ffmpeg([...sine(1.5), '-c:a', 'libopus', '-b:a', '48k', '-metadata', 'title=Opus Song', '-metadata', 'artist=Opus Artist', opus]);
  const vorbis = at('vorbis.ogg');
  await ffmpeg([...sine(1.5), '-c:a', 'libvorbis', '-q:a', '2', '-metadata', 'title=Vorbis Song', vorbis]);
  const withCover = (output: string, codec: string[], tags: string[], format: string[] = []) =>
    ffmpeg([
      ...sine(1.5),
      '-i',
      at('front.jpg'),
      '-map',
      '0:a',
      '-map',
      '1:v',
      ...codec,
      '-c:v',
      'copy',
      '-disposition:v:0',
      'attached_pic',
      ...tags,
      ...format,
      output,
    ]);
  const m4a = at('aac.m4a');
  await withCover(m4a, ['-c:a', 'aac', '-b:a', '96k'], ['-metadata', 'title=M4A Song', '-metadata', 'artist=M4A Artist', '-metadata', 'album=M4A Album']);
  const flac = at('lossless.flac');
  await withCover(flac, ['-c:a', 'flac'], ['-metadata', 'title=FLAC Song', '-metadata', 'artist=FLAC Artist', '-metadata', `LYRICS=${TAGGED.lyrics}`]);
  const wav = at('pcm.wav');
  await ffmpeg([...sine(1), '-c:a', 'pcm_s16le', '-metadata', 'title=WAV Song', wav]);
  const videoMp4 = at('film.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=10:duration=1', ...sine(1), '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', videoMp4]);

  const files: Record<string, Buffer | string> = {
    'truncated.mp3': plain.subarray(0, Math.floor(plain.length * 0.55)),
    'malformed-tags.mp3': malformed,
    'broken-header.mp3': brokenHeader,
    'bomb-cover.mp3': Buffer.concat([id3v23([textFrame('TIT2', 'Bomb Cover'), pictureFrame(pngBomb(20_000, 20_000), 'image/png', 3)]), plain]),
    'notes.mp3': 'These are my notes, not music.\n'.repeat(200),
  };
  for (const [name, content] of Object.entries(files)) await writeFile(at(name), content);
  await copyFile('/bin/ls', at('program.mp3'));

  return {
    dir,
    taggedMp3,
    plainMp3,
    opus,
    vorbis,
    m4a,
    flac,
    wav,
    truncatedMp3: at('truncated.mp3'),
    malformedTagsMp3: at('malformed-tags.mp3'),
    brokenHeaderMp3: at('broken-header.mp3'),
    bombCoverMp3: at('bomb-cover.mp3'),
    executable: at('program.mp3'),
    textAsMp3: at('notes.mp3'),
    videoMp4,
    async oversized(bytes: number) {
      const file = at(`oversized-${bytes}.mp3`);
      // An MP3 frame header in front, so only the size can be the reason for a refusal.
      const data = Buffer.alloc(bytes, 0x55);
      plain.copy(data, 0, 0, Math.min(plain.length, bytes));
      await writeFile(file, data);
      return file;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** An ID3v2.3 tag around the given frames. */
export function id3v23(frames: Buffer[]): Buffer {
  const body = Buffer.concat(frames);
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  let size = body.length;
  for (let i = 9; i >= 6; i -= 1) {
    header[i] = size & 0x7f;
    size >>= 7;
  }
  return Buffer.concat([header, body]);
}

function frame(id: string, content: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  header.writeUInt32BE(content.length, 4);
  return Buffer.concat([header, content]);
}

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([1]), utf16(text)]));
}

function lyricsFrame(text: string): Buffer {
  return frame('USLT', Buffer.concat([Buffer.from([1]), Buffer.from('eng', 'latin1'), utf16(''), Buffer.from([0, 0]), utf16(text)]));
}

/** APIC: picture type 3 is the front cover, 4 the back cover. */
function pictureFrame(data: Buffer, mime: string, type: number): Buffer {
  return frame('APIC', Buffer.concat([Buffer.from([0]), Buffer.from(`${mime}\0`, 'latin1'), Buffer.from([type, 0]), data]));
}

/** A valid 1-bit greyscale PNG of width x height black pixels: tiny on disk, huge decoded. */
export function pngBomb(width: number, height: number): Buffer {
  const rowBytes = 1 + Math.ceil(width / 8);
  const idat = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
