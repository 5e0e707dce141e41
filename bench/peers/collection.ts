/**
 * The peers bench's collection (not a bench itself): `count` songs as
 * `Artist/Album (Year)/NN Title.ext`, ten to an album and ten albums to an artist, the formats
 * MP3, FLAC, Ogg Vorbis and M4A (AAC) in rotation, each tagged (title, artist, album, year,
 * track) and a `cover.jpg` beside every album's songs.
 *
 * Fast: ffmpeg makes one 2.5 s clip per format, once, without tags; every song is a copy of its
 * format's clip with only the tags written here: an ID3v2.3 tag in front of the MP3 frames, the
 * FLAC's VORBIS_COMMENT block, the Ogg's comment header (its header pages laid out again and
 * every page's sequence number and CRC rewritten), and the M4A's `moov/udta/meta/ilst` (ffmpeg
 * writes `moov` after `mdat`, so rebuilding it moves no sample offsets).
 *
 * Kept in `/tmp/encore-peers-<count>` and reused (a `.complete` file marks a finished tree; the
 * scanners of both servers skip dot files).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
export const SONGS_PER_ALBUM = 10;
const ALBUMS_PER_ARTIST = 10;
const WRITE_CONCURRENCY = 32;
export const FORMATS = ['mp3', 'flac', 'ogg', 'm4a'] as const;
export type Format = (typeof FORMATS)[number];

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

export interface SongTags {
  title: string;
  artist: string;
  album: string;
  year: number;
  track: number;
  format: Format;
  /** Relative to the tree. */
  file: string;
}

export function songTags(song: number): SongTags {
  const album = Math.floor(song / SONGS_PER_ALBUM);
  const artistIndex = Math.floor(album / ALBUMS_PER_ARTIST);
  const artist = `${word(artistIndex * 7)} ${word(artistIndex * 3 + 1)} ${artistIndex}`;
  const albumTitle = `${word(album * 11 + 2)} ${word(album * 5 + 4)} ${album}`;
  const title = `${word(song * 13 + 3)} ${word(song * 17 + 5)} ${song}`;
  const year = 1960 + (album % 60);
  const track = (song % SONGS_PER_ALBUM) + 1;
  const format = FORMATS[song % FORMATS.length] as Format;
  const file = path.join(artist, `${albumTitle} (${year})`, `${String(track).padStart(2, '0')} ${title}.${format}`);
  return { title, artist, album: albumTitle, year, track, format, file };
}

export interface Collection {
  dir: string;
  count: number;
  /** Null when an earlier run's tree was reused. */
  generatedMs: number | null;
  bytes: number;
}

/** The tree of `count` songs, generated unless a finished one is in /tmp. */
export async function peersCollection(count: number): Promise<Collection> {
  const dir = path.join('/tmp', `encore-peers-${count}`);
  const marker = path.join(dir, '.complete');
  const done = await readFile(marker, 'utf8').catch(() => undefined);
  if (done !== undefined) return { dir, count, generatedMs: null, bytes: Number(done) };
  const started = performance.now();
  await rm(dir, { recursive: true, force: true });
  const clips = await sourceClips();
  const albums = Math.ceil(count / SONGS_PER_ALBUM);
  for (let album = 0; album < albums; album += 1) {
    const first = songTags(album * SONGS_PER_ALBUM);
    await mkdir(path.join(dir, path.dirname(first.file)), { recursive: true });
    await writeFile(path.join(dir, path.dirname(first.file), 'cover.jpg'), withJpegComment(clips.cover, `Encore peers album ${album}`));
  }
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITE_CONCURRENCY }, async () => {
      while (next < count) {
        const tags = songTags(next++);
        const file = tagged(clips, tags);
        bytes += file.length;
        await writeFile(path.join(dir, tags.file), file);
      }
    }),
  );
  await writeFile(marker, String(bytes));
  return { dir, count, generatedMs: performance.now() - started, bytes };
}

interface Clips {
  mp3: Buffer;
  flac: Buffer;
  ogg: Buffer;
  m4a: Buffer;
  cover: Buffer;
}

export function tagged(clips: Clips, tags: SongTags): Buffer {
  switch (tags.format) {
    case 'mp3':
      return Buffer.concat([id3Tag(tags), clips.mp3]);
    case 'flac':
      return flacWithComments(clips.flac, vorbisComments(tags));
    case 'ogg':
      return oggWithComments(clips.ogg, vorbisComments(tags));
    case 'm4a':
      return m4aWithTags(clips.m4a, tags);
  }
}

/** One 2.5 s stereo clip per format, without any tag, and a 300 x 300 JPEG. */
async function sourceClips(): Promise<Clips> {
  const dir = await mkdtemp(path.join(tmpdir(), 'encore-peers-clips-'));
  try {
    const source = ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2.5', '-ac', '2', '-ar', '44100', '-map_metadata', '-1'];
    const make = async (name: string, codec: string[]) => {
      const out = path.join(dir, name);
      await run(FFMPEG, [...source, ...codec, '-y', out]);
      return readFile(out);
    };
    const mp3 = await make('clip.mp3', ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '0', '-write_id3v1', '0', '-write_xing', '1']);
    const flac = await make('clip.flac', ['-c:a', 'flac']);
    const ogg = await make('clip.ogg', ['-c:a', 'libvorbis', '-q:a', '3']);
    const m4a = await make('clip.m4a', ['-c:a', 'aac', '-b:a', '128k']);
    const coverPath = path.join(dir, 'cover.jpg');
    await run(FFMPEG, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=300x300:rate=1', '-frames:v', '1', '-q:v', '4', '-y', coverPath]);
    const cover = await readFile(coverPath);
    if (mp3[0] !== 0xff) throw new Error('ffmpeg wrote something before the first MPEG frame');
    return { mp3, flac, ogg: oggStripped(ogg), m4a, cover };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---- JPEG: the same picture, other bytes (a comment segment after the start marker).
function withJpegComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

// ---- MP3: ID3v2.3.
function id3Frame(id: string, text: string): Buffer {
  // UTF-16 with a byte order mark when the text is not Latin-1, else ISO-8859-1.
  // eslint-disable-next-line no-control-regex
  const body = /^[\u0000-\u00ff]*$/.test(text)
    ? Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')])
    : Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const header = Buffer.alloc(10);
  header.write(id, 0, 'latin1');
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

function id3Tag(tags: SongTags): Buffer {
  const body = Buffer.concat([
    id3Frame('TIT2', tags.title),
    id3Frame('TPE1', tags.artist),
    id3Frame('TALB', tags.album),
    id3Frame('TYER', String(tags.year)),
    id3Frame('TRCK', `${tags.track}/${SONGS_PER_ALBUM}`),
  ]);
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  for (let i = 0; i < 4; i += 1) header[9 - i] = (body.length >> (7 * i)) & 0x7f;
  return Buffer.concat([header, body]);
}

// ---- Vorbis comments (FLAC's block and Ogg Vorbis's header share the layout).
function vorbisComments(tags: SongTags): Buffer {
  const entries = [`TITLE=${tags.title}`, `ARTIST=${tags.artist}`, `ALBUM=${tags.album}`, `DATE=${tags.year}`, `TRACKNUMBER=${tags.track}`].map((entry) =>
    Buffer.from(entry, 'utf8'),
  );
  const vendor = Buffer.from('Encore peers bench', 'utf8');
  const parts: Buffer[] = [u32le(vendor.length), vendor, u32le(entries.length)];
  for (const entry of entries) parts.push(u32le(entry.length), entry);
  return Buffer.concat(parts);
}

function u32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value, 0);
  return buffer;
}

// ---- FLAC: the metadata blocks but the comment and padding, then ours, last.
function flacWithComments(flac: Buffer, comments: Buffer): Buffer {
  if (flac.toString('latin1', 0, 4) !== 'fLaC') throw new Error('not a FLAC clip');
  const kept: Buffer[] = [];
  let at = 4;
  for (;;) {
    const header = flac[at] ?? 0;
    const length = flac.readUIntBE(at + 1, 3);
    const type = header & 0x7f;
    if (type !== 4 && type !== 1) kept.push(Buffer.concat([Buffer.from([type]), flac.subarray(at + 1, at + 4 + length)]));
    at += 4 + length;
    if (header & 0x80) break;
  }
  const block = Buffer.alloc(4);
  block[0] = 0x80 | 4;
  block.writeUIntBE(comments.length, 1, 3);
  return Buffer.concat([flac.subarray(0, 4), ...kept, block, comments, flac.subarray(at)]);
}

// ---- Ogg Vorbis.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let j = 0; j < 8; j += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] as number)) >>> 0;
  return crc;
}

interface OggPage {
  headerType: number;
  granule: Buffer;
  serial: number;
  segments: number[];
  body: Buffer;
}

function oggPages(ogg: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  let at = 0;
  while (at < ogg.length) {
    if (ogg.toString('latin1', at, at + 4) !== 'OggS') throw new Error(`no Ogg page at ${at}`);
    const count = ogg[at + 26] ?? 0;
    const segments = [...ogg.subarray(at + 27, at + 27 + count)];
    const bodyLength = segments.reduce((sum, n) => sum + n, 0);
    const start = at + 27 + count;
    pages.push({
      headerType: ogg[at + 5] ?? 0,
      granule: Buffer.from(ogg.subarray(at + 6, at + 14)),
      serial: ogg.readUInt32LE(at + 14),
      segments,
      body: Buffer.from(ogg.subarray(start, start + bodyLength)),
    });
    at = start + bodyLength;
  }
  return pages;
}

function oggPage(page: OggPage, sequence: number): Buffer {
  const header = Buffer.alloc(27 + page.segments.length);
  header.write('OggS', 0, 'latin1');
  header[5] = page.headerType;
  page.granule.copy(header, 6);
  header.writeUInt32LE(page.serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = page.segments.length;
  Buffer.from(page.segments).copy(header, 27);
  const whole = Buffer.concat([header, page.body]);
  whole.writeUInt32LE(oggCrc(whole), 22);
  return whole;
}

/** The clip's three header packets and its audio pages (the Ogg clip kept parsed once). */
interface OggClip {
  identification: Buffer;
  setup: Buffer;
  audio: OggPage[];
  serial: number;
}
const oggClips = new WeakMap<Buffer, OggClip>();

/** Parses the clip (checking its header packets end on a page's end) and keeps it parsed. */
function oggStripped(ogg: Buffer): Buffer {
  const pages = oggPages(ogg);
  const packets: Buffer[] = [];
  let current: Buffer[] = [];
  let page = 0;
  for (; page < pages.length && packets.length < 3; page += 1) {
    const { segments, body } = pages[page] as OggPage;
    let offset = 0;
    for (const size of segments) {
      current.push(body.subarray(offset, offset + size));
      offset += size;
      if (size < 255) {
        packets.push(Buffer.concat(current));
        current = [];
      }
    }
  }
  if (packets.length !== 3 || current.length > 0) throw new Error('the Ogg clip: the header packets do not end on a page');
  oggClips.set(ogg, { identification: packets[0] as Buffer, setup: packets[2] as Buffer, audio: pages.slice(page), serial: (pages[0] as OggPage).serial });
  return ogg;
}

function lacing(size: number): number[] {
  const values: number[] = [];
  let left = size;
  while (left >= 255) {
    values.push(255);
    left -= 255;
  }
  values.push(left);
  return values;
}

function oggWithComments(ogg: Buffer, comments: Buffer): Buffer {
  const clip = oggClips.get(ogg);
  if (!clip) throw new Error('the Ogg clip was not parsed');
  const comment = Buffer.concat([Buffer.from([3]), Buffer.from('vorbis', 'latin1'), comments, Buffer.from([1])]);
  const zero = Buffer.alloc(8);
  const first: OggPage = { headerType: 2, granule: zero, serial: clip.serial, segments: lacing(clip.identification.length), body: clip.identification };
  // The comment and setup packets on as many pages as their lacing values need (255 a page).
  const lace = [...lacing(comment.length), ...lacing(clip.setup.length)];
  const body = Buffer.concat([comment, clip.setup]);
  const headerPages: OggPage[] = [];
  let offset = 0;
  for (let i = 0; i < lace.length; i += 255) {
    const segments = lace.slice(i, i + 255);
    const length = segments.reduce((sum, n) => sum + n, 0);
    // A page continues a packet when the one before ended on a 255 lacing value.
    const continued = i > 0 && lace[i - 1] === 255;
    headerPages.push({ headerType: continued ? 1 : 0, granule: zero, serial: clip.serial, segments, body: body.subarray(offset, offset + length) });
    offset += length;
  }
  const out = [first, ...headerPages, ...clip.audio].map((page, sequence) => oggPage(page, sequence));
  return Buffer.concat(out);
}

// ---- M4A: moov rebuilt with our udta/meta/ilst (moov follows mdat: no offsets move).
function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

function textItem(type: string, text: string): Buffer {
  return box(type, box('data', Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]), Buffer.from(text, 'utf8')));
}

function m4aWithTags(m4a: Buffer, tags: SongTags): Buffer {
  let at = 0;
  let moovAt = -1;
  let mdatAt = -1;
  while (at < m4a.length) {
    const size = m4a.readUInt32BE(at);
    const type = m4a.toString('latin1', at + 4, at + 8);
    if (type === 'moov') moovAt = at;
    if (type === 'mdat') mdatAt = at;
    if (size < 8) throw new Error('the M4A clip: a box of an unexpected size');
    at += size;
  }
  if (moovAt < 0 || mdatAt < 0 || moovAt < mdatAt) throw new Error('the M4A clip: moov does not follow mdat');
  const moovSize = m4a.readUInt32BE(moovAt);
  const children: Buffer[] = [];
  for (let child = moovAt + 8; child < moovAt + moovSize;) {
    const size = m4a.readUInt32BE(child);
    if (m4a.toString('latin1', child + 4, child + 8) !== 'udta') children.push(m4a.subarray(child, child + size));
    child += size;
  }
  const track = Buffer.alloc(8);
  track.writeUInt16BE(tags.track, 2);
  track.writeUInt16BE(SONGS_PER_ALBUM, 4);
  const ilst = box(
    'ilst',
    textItem('\u00a9nam', tags.title),
    textItem('\u00a9ART', tags.artist),
    textItem('\u00a9alb', tags.album),
    textItem('\u00a9day', String(tags.year)),
    box('trkn', box('data', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]), track)),
  );
  const hdlr = box('hdlr', Buffer.alloc(8), Buffer.from('mdirappl', 'latin1'), Buffer.alloc(9));
  const udta = box('udta', box('meta', Buffer.alloc(4), hdlr, ilst));
  return Buffer.concat([m4a.subarray(0, moovAt), box('moov', ...children, udta), m4a.subarray(moovAt + moovSize)]);
}
