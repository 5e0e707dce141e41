/**
 * The music folder the scan bench reads (not a bench itself): `count` small tagged MP3s as
 * Artist/Album/NN Title.mp3, ten to an album. Each file is an ID3v2.3 tag written here (title,
 * artist, album, track, year, genre; an APIC cover in a third of the albums) in front of the
 * MPEG frames of one half-second MP3 made once by ffmpeg, so 50,000 files take seconds. Another
 * third of the albums have a cover.jpg beside their songs; the rest have no cover. Every
 * album's picture is its own (one of a few JPEGs made by sharp, told apart by a comment
 * segment), so the scan renders a cover per album as it would in a real collection.
 *
 * Kept in the OS temp folder by count and reused (a `.complete` file, hidden from the scan,
 * marks a finished tree).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
const TREE_VERSION = 1;
export const SONGS_PER_ALBUM = 10;
const ALBUMS_PER_ARTIST = 10;
const WRITE_CONCURRENCY = 64;

const WORDS = [
  'Midnight',
  'River',
  'Golden',
  'Shadows',
  'Electric',
  'Garden',
  'Hollow',
  'Silver',
  'Morning',
  'Echo',
  'Paper',
  'Ocean',
  'Velvet',
  'Northern',
  'Lights',
  'Summer',
  'Rain',
  'Glass',
  'Heart',
  'Wild',
  'Fire',
  'Quiet',
  'Storm',
  'Blue',
  'Desert',
  'Moon',
  'Stone',
  'Winter',
  'Road',
  'Dream',
];

const word = (n: number) => WORDS[n % WORDS.length] as string;
export const artistName = (artist: number) => `${word(artist * 7)} ${word(artist * 3 + 1)} ${artist}`;
export const albumName = (album: number) => `${word(album * 11 + 2)} ${word(album * 5 + 4)} ${album}`;
export const songTitle = (song: number) => `${word(song * 13 + 3)} ${word(song * 17 + 5)} ${song}`;

/** The file of song `song` (0-based), relative to the tree. */
export function songPath(song: number): string {
  const album = Math.floor(song / SONGS_PER_ALBUM);
  const artist = Math.floor(album / ALBUMS_PER_ARTIST);
  const track = (song % SONGS_PER_ALBUM) + 1;
  return path.join(artistName(artist), albumName(album), `${String(track).padStart(2, '0')} ${songTitle(song)}.mp3`);
}

export interface TreeMaker {
  /** Song `song`'s file (tag and frames), and the album's cover.jpg when its album has one beside. */
  song(song: number, extra?: { title: string }): Buffer;
  coverBeside(album: number): Buffer | undefined;
}

/** The tree of `count` songs, generated unless a finished one is in the temp folder. */
export async function scanTree(count: number): Promise<{ dir: string; generatedMs: number | null; bytes: number; maker: TreeMaker }> {
  const dir = path.join(tmpdir(), `encore-scan-bench-v${TREE_VERSION}-${count}`);
  const maker = await treeMaker();
  const marker = path.join(dir, '.complete');
  const done = await readFile(marker, 'utf8').catch(() => undefined);
  if (done !== undefined) return { dir, generatedMs: null, bytes: Number(done), maker };
  const started = performance.now();
  await rm(dir, { recursive: true, force: true });
  let bytes = 0;
  const albums = Math.ceil(count / SONGS_PER_ALBUM);
  for (let album = 0; album < albums; album += 1) {
    await mkdir(path.join(dir, path.dirname(songPath(album * SONGS_PER_ALBUM))), { recursive: true });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITE_CONCURRENCY }, async () => {
      while (next < count) {
        const song = next++;
        const file = maker.song(song);
        bytes += file.length;
        await writeFile(path.join(dir, songPath(song)), file);
        if (song % SONGS_PER_ALBUM === 0) {
          const cover = maker.coverBeside(song / SONGS_PER_ALBUM);
          if (cover) await writeFile(path.join(dir, path.dirname(songPath(song)), 'cover.jpg'), cover);
        }
      }
    }),
  );
  await writeFile(marker, String(bytes));
  return { dir, generatedMs: performance.now() - started, bytes, maker };
}

async function treeMaker(): Promise<TreeMaker> {
  const frames = await mpegFrames();
  const pictures = await basePictures();
  const albumCover = (album: number) => withComment(pictures[album % pictures.length] as Buffer, `Encore bench album ${album}`);
  return {
    song(song, extra) {
      const album = Math.floor(song / SONGS_PER_ALBUM);
      const artist = Math.floor(album / ALBUMS_PER_ARTIST);
      const frames2 = [
        textFrame('TIT2', extra?.title ?? songTitle(song)),
        textFrame('TPE1', artistName(artist)),
        textFrame('TALB', albumName(album)),
        textFrame('TRCK', `${(song % SONGS_PER_ALBUM) + 1}/${SONGS_PER_ALBUM}`),
        textFrame('TYER', String(1960 + (album % 60))),
        textFrame('TCON', ['Rock', 'Jazz', 'Pop', 'Folk', 'Electronic'][album % 5] as string),
      ];
      if (album % 3 === 0) frames2.push(pictureFrame(albumCover(album)));
      return Buffer.concat([id3Tag(frames2), frames]);
    },
    coverBeside(album) {
      return album % 3 === 1 ? albumCover(album) : undefined;
    },
  };
}

/** The MPEG frames (with ffmpeg's Info header) of a half-second mono MP3, without any tag. */
async function mpegFrames(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-scan-frames-'));
  try {
    const out = path.join(dir, 'tone.mp3');
    await run(FFMPEG, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=0.5',
      '-ac',
      '1',
      '-ar',
      '22050',
      '-b:a',
      '32k',
      '-map_metadata',
      '-1',
      '-id3v2_version',
      '0',
      '-write_id3v1',
      '0',
      '-y',
      out,
    ]);
    const bytes = await readFile(out);
    if (bytes[0] !== 0xff || ((bytes[1] ?? 0) & 0xe0) !== 0xe0) throw new Error('ffmpeg wrote something before the first MPEG frame');
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A few distinct 200 x 200 JPEGs (gradients of different colours, a few KB each). */
async function basePictures(): Promise<Buffer[]> {
  const { default: sharp } = await import('sharp');
  const size = 200;
  return Promise.all(
    Array.from({ length: 8 }, async (_, n) => {
      const raw = Buffer.alloc(size * size * 3);
      for (let y = 0; y < size; y += 1)
        for (let x = 0; x < size; x += 1) {
          const at = (y * size + x) * 3;
          raw[at] = (x * (n + 1)) % 256;
          raw[at + 1] = (y * (8 - n)) % 256;
          raw[at + 2] = (n * 31 + x + y) % 256;
        }
      return sharp(raw, { raw: { width: size, height: size, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer();
    }),
  );
}

/** The same picture with a JPEG comment segment after its start marker: other bytes, same image. */
function withComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

function frame(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** A text frame: ISO-8859-1 when the text fits, else UTF-16 with a byte order mark. */
function textFrame(id: string, text: string): Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u00ff]*$/.test(text)) return frame(id, Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')]));
  return frame(id, Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

function pictureFrame(jpeg: Buffer): Buffer {
  // Encoding, MIME type, picture type 3 (front cover), empty description, the picture.
  return frame('APIC', Buffer.concat([Buffer.from([0]), Buffer.from('image/jpeg\0', 'latin1'), Buffer.from([3, 0]), jpeg]));
}

function id3Tag(frames: Buffer[]): Buffer {
  const body = Buffer.concat(frames);
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  // The tag's size as four 7-bit bytes (syncsafe).
  for (let i = 0; i < 4; i += 1) header[9 - i] = (body.length >> (7 * i)) & 0x7f;
  return Buffer.concat([header, body]);
}
