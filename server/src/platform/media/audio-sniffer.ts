import type { ByteSource } from './byte-source.js';

/**
 * Tells what an upload is from its bytes, never from its name or declared type.
 * Encore accepts MP3, WAV, Ogg (Vorbis, Opus, FLAC or Speex), M4A/MP4 audio, raw AAC (ADTS) and FLAC;
 * everything else sniffs as `undefined`. `sniffAudioFile` reads the file where it must (past
 * ID3v2 tags of any size); `sniffAudio` judges the first SNIFF_BYTES alone.
 */
export type AudioContainer = 'mp3' | 'wav' | 'ogg' | 'm4a' | 'aac' | 'flac';

export interface SniffedAudio {
  container: AudioContainer;
  /** The MIME type Encore stores and serves the file with. */
  mimeType: string;
}

/** Enough for every header below and for a run of MPEG frames after junk or a partial frame. */
export const SNIFF_BYTES = 64 * 1024;

const MIME: Record<AudioContainer, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

/**
 * ISO base media brands a file with an audio track may carry, as major or compatible brand:
 * iTunes audio and audiobooks, the generic MP4 and ISO brands ffmpeg and phones write, DASH,
 * Flash audio, 3GPP recordings. Whether the file holds video is the tag parser's call (415).
 */
const MP4_BRANDS = new Set([
  'M4A ',
  'M4B ',
  'M4P ',
  'F4A ',
  'F4B ',
  'f4a ',
  'mp41',
  'mp42',
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'dash',
  'msdh',
  '3gp4',
  '3gp5',
  '3gp6',
  '3gp7',
  '3gg6',
  '3g2a',
]);
/** Still images in the same box format (HEIF, AVIF): never audio, whatever else they list. */
const IMAGE_BRANDS = new Set(['mif1', 'msf1', 'heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'avif', 'avis', 'avci', 'crx ']);
/** A file of nothing but ID3 tags is not worth reading tag by tag. */
const MAX_ID3_TAGS = 64;

export function sniffAudio(head: Uint8Array): SniffedAudio | undefined {
  return described(sniffWindow(asBuffer(head)));
}

/**
 * What the file is, reading it where needed: each ID3v2 tag in front (some files carry two) is
 * skipped by its declared size, however large, and what follows is sniffed.
 */
export async function sniffAudioFile(source: ByteSource): Promise<SniffedAudio | undefined> {
  let at = 0;
  for (let tags = 0; tags < MAX_ID3_TAGS; tags += 1) {
    const header = await source.read(at, 10);
    if (ascii(header, 0, 3) !== 'ID3') break;
    const size = id3TagSize(header);
    if (size === undefined) return described(damagedId3(await source.read(at, SNIFF_BYTES)));
    at += size;
    // The tag claims the rest of the file: the tag parser decides whether audio follows.
    if (at >= source.size) return described('mp3');
  }
  return described(afterTags(await source.read(at, SNIFF_BYTES), at > 0));
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function described(container: AudioContainer | undefined): SniffedAudio | undefined {
  return container === undefined ? undefined : { container, mimeType: MIME[container] };
}

function sniffWindow(head: Buffer): AudioContainer | undefined {
  let at = 0;
  for (let tags = 0; tags < MAX_ID3_TAGS && ascii(head, at, 3) === 'ID3'; tags += 1) {
    const size = id3TagSize(head.subarray(at, at + 10));
    if (size === undefined) return damagedId3(head.subarray(at));
    at += size;
    // A tag larger than what was read: the tag parser decides later.
    if (at >= head.length) return 'mp3';
  }
  return afterTags(head.subarray(at), at > 0);
}

/** An ID3 header with impossible sizes is damaged: only a run of real MPEG frames makes it MP3. */
function damagedId3(window: Buffer): AudioContainer | undefined {
  return scanForMpegRun(window, 10);
}

/**
 * `window` starts where the ID3 tags (if any) end. Some taggers pad with zeros beyond the
 * declared size. Behind a tag only what ffmpeg's demuxers also skip a tag for is accepted
 * (FLAC, ADTS, MPEG); otherwise the MPEG sync is searched as decoders do: after junk, a
 * partial frame or padding, a run of consistent frames is an MP3.
 */
function afterTags(window: Buffer, tagged: boolean): AudioContainer | undefined {
  let at = 0;
  if (tagged) while (at < window.length && window[at] === 0) at += 1;
  if (tagged && at >= window.length) return 'mp3';
  const signed = signature(window, at);
  if (signed === NOT_AUDIO) return undefined;
  if (signed !== undefined && (!tagged || signed === 'flac')) return signed;
  if (isAdtsRun(window, at)) return 'aac';
  return isMpegRun(window, at) ? 'mp3' : scanForMpegRun(window, at);
}

const NOT_AUDIO = 'not audio';

/**
 * The container a signature at `at` names; NOT_AUDIO for a container or file type that is
 * never an audio upload (a film, an image, an archive, a program), which no MPEG frames
 * inside it change.
 */
function signature(head: Buffer, at: number): AudioContainer | typeof NOT_AUDIO | undefined {
  const magic = ascii(head, at, 4);
  if (magic === 'fLaC') return 'flac';
  if (magic === 'RIFF') return ascii(head, at + 8, 4) === 'WAVE' ? 'wav' : NOT_AUDIO;
  if (magic === 'OggS') return isOggAudio(head, at) ? 'ogg' : NOT_AUDIO;
  if (ascii(head, at + 4, 4) === 'ftyp') return isIsoAudio(head, at) ? 'm4a' : NOT_AUDIO;
  if (NOT_AUDIO_MAGIC.some((known) => ascii(head, at, known.length) === known)) return NOT_AUDIO;
  return undefined;
}

/** Zip (and its office files), PDF, PNG, GIF, JPEG, ELF and Windows programs. */
const NOT_AUDIO_MAGIC = ['PK\x03\x04', '%PDF', '\x89PNG', 'GIF8', '\xff\xd8\xff', '\x7fELF', 'MZ'];

/**
 * An ISO base media `ftyp` box: the major brand or any compatible brand (iTunes writes
 * `M4A ` as either; phones write `3gp4` with `isom`) is one an audio file carries.
 */
function isIsoAudio(head: Buffer, at: number): boolean {
  const boxSize = at + 4 <= head.length ? head.readUInt32BE(at) : 0;
  const major = ascii(head, at + 8, 4);
  if (major === '' || IMAGE_BRANDS.has(major)) return false;
  const brands = [major];
  // ftyp: size, 'ftyp', major brand, minor version, then 4-byte compatible brands to its end.
  const end = Math.min(head.length, at + (boxSize >= 16 && boxSize <= 4096 ? boxSize : 16));
  for (let brand = at + 16; brand + 4 <= end; brand += 4) brands.push(ascii(head, brand, 4));
  return brands.some((brand) => MP4_BRANDS.has(brand));
}

/** The whole tag's length (header, body and optional footer), or undefined when the header is not valid. */
function id3TagSize(head: Buffer): number | undefined {
  if (head.length < 10) return undefined;
  const major = head[3] ?? 0;
  const revision = head[4] ?? 0;
  const flags = head[5] ?? 0;
  if (major < 2 || major > 4 || revision === 0xff) return undefined;
  // The size is synchsafe: 7 bits a byte, the high bit always clear.
  let body = 0;
  for (let i = 6; i < 10; i += 1) {
    const byte = head[i] ?? 0xff;
    if (byte >= 0x80) return undefined;
    body = body * 128 + byte;
  }
  const footer = major === 4 && (flags & 0x10) !== 0 ? 10 : 0;
  return 10 + body + footer;
}

/** The identification headers of the audio codecs Ogg carries (Vorbis, Opus, FLAC's Ogg mapping, Speex). */
const OGG_AUDIO_HEADERS = ['\x01vorbis', 'OpusHead', '\x7fFLAC', 'Speex   '];

function isOggAudio(head: Buffer, at: number): boolean {
  // The first page carries one packet: the codec's identification header.
  const segments = head[at + 26];
  if (segments === undefined) return false;
  const packet = at + 27 + segments;
  return OGG_AUDIO_HEADERS.some((header) => ascii(head, packet, header.length) === header);
}

// MPEG audio frame headers (ISO 11172-3 / 13818-3): bit rates in kbit/s by [version][layer][index].
const V1 = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
];
const V2 = [
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The length in bytes of the MPEG audio frame whose header starts at `at`, or undefined. */
export function mpegFrameLength(head: Buffer, at: number): number | undefined {
  return mpegFrame(head, at)?.length;
}

interface MpegFrame {
  length: number;
  /** Version, layer and sample rate: the same in every frame of one stream (the bit rate may vary). */
  stream: number;
}

function mpegFrame(head: Buffer, at: number): MpegFrame | undefined {
  if (at + 4 > head.length) return undefined;
  const b1 = head[at + 1] ?? 0;
  const b2 = head[at + 2] ?? 0;
  if (head[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  const layerBits = (b1 >> 1) & 3; // 3: layer I, 2: II, 1: III, 0: reserved (ADTS uses it)
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const layer = 4 - layerBits; // 1, 2 or 3
  const kbps = (version === 3 ? V1 : V2)[layer - 1]?.[bitrateIndex] ?? 0;
  const sampleRate = SAMPLE_RATES[version]?.[rateIndex] ?? 0;
  const padding = (b2 >> 1) & 1;
  const stream = (version << 4) | (layer << 2) | rateIndex;
  if (layer === 1) return { length: (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4, stream };
  const perFrame = layer === 3 && version !== 3 ? 72 : 144;
  return { length: Math.floor((perFrame * kbps * 1000) / sampleRate) + padding, stream };
}

/**
 * How many frames of one stream follow each other from `at`, up to `enough`; `open` when the
 * run reaches the end of what was read (the next frame would start beyond it).
 */
function mpegRun(head: Buffer, at: number, enough: number): { frames: number; open: boolean } {
  const first = mpegFrame(head, at);
  if (!first) return { frames: 0, open: false };
  let frames = 1;
  let next = at + first.length;
  while (frames < enough) {
    if (next + 4 > head.length) return { frames, open: true };
    const frame = mpegFrame(head, next);
    if (!frame || frame.stream !== first.stream) return { frames, open: false };
    frames += 1;
    next += frame.length;
  }
  return { frames, open: false };
}

/**
 * Where a frame is expected (the start, right after a tag): it and the next. Never one header
 * alone: two bytes `FF Fx` start as many other files (a UTF-16 text's byte order mark `FF FE`
 * reads as an MPEG-1 layer I header), and a song is never a single frame.
 */
function isMpegRun(head: Buffer, at: number): boolean {
  return mpegRun(head, at, 2).frames >= 2;
}

/** Frames a scan must find in a row: one or two lucky 0xFFE headers in other data are not audio. */
const SCAN_RUN = 3;

/**
 * The MPEG sync searched byte by byte, as decoders resynchronise after junk, padding or a
 * partial frame: a run of SCAN_RUN consistent frames, or of two that reach the end of what
 * was read.
 */
function scanForMpegRun(head: Buffer, from: number): AudioContainer | undefined {
  for (let at = head.indexOf(0xff, from); at !== -1 && at + 4 <= head.length; at = head.indexOf(0xff, at + 1)) {
    const run = mpegRun(head, at, SCAN_RUN);
    if (run.frames >= SCAN_RUN || (run.frames >= 2 && run.open)) return 'mp3';
  }
  return undefined;
}

/** Raw AAC: ADTS frames (sync 0xFFF, layer 00) with a plausible length, twice in a row. */
function isAdtsRun(head: Buffer, at: number): boolean {
  const length = adtsFrameLength(head, at);
  if (length === undefined) return false;
  const next = at + length;
  return next + 7 > head.length || adtsFrameLength(head, next) !== undefined;
}

function adtsFrameLength(head: Buffer, at: number): number | undefined {
  if (at + 7 > head.length) return undefined;
  const b1 = head[at + 1] ?? 0;
  if (head[at] !== 0xff || (b1 & 0xf6) !== 0xf0) return undefined;
  const b2 = head[at + 2] ?? 0;
  if (((b2 >> 2) & 0xf) > 12) return undefined; // sampling frequency index
  const length = (((head[at + 3] ?? 0) & 0x03) << 11) | ((head[at + 4] ?? 0) << 3) | ((head[at + 5] ?? 0) >> 5);
  return length >= 7 ? length : undefined;
}

function ascii(buffer: Buffer, at: number, length: number): string {
  if (at < 0 || at + length > buffer.length) return '';
  return buffer.toString('latin1', at, at + length);
}
