/**
 * Tells what an upload is from its first bytes, never from its name or declared type.
 * Encore accepts MP3, WAV, Ogg (Vorbis or Opus), M4A/MP4 audio, raw AAC (ADTS) and FLAC;
 * everything else sniffs as `undefined`. Give it the first SNIFF_BYTES of the file (fewer
 * when the file is shorter).
 */
export type AudioContainer = 'mp3' | 'wav' | 'ogg' | 'm4a' | 'aac' | 'flac';

export interface SniffedAudio {
  container: AudioContainer;
  /** The MIME type Encore stores and serves the file with. */
  mimeType: string;
}

/** Enough for every header below and for two MPEG frames after a modest ID3 tag. */
export const SNIFF_BYTES = 64 * 1024;

const MIME: Record<AudioContainer, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

/** ISO base media brands of audio files and of the generic MP4 brands iTunes and ffmpeg write. */
const MP4_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'mp42', 'mp41', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'dash', 'f4a ', 'F4A ']);

export function sniffAudio(head: Uint8Array): SniffedAudio | undefined {
  const container = sniffContainer(Buffer.from(head.buffer, head.byteOffset, head.byteLength));
  return container === undefined ? undefined : { container, mimeType: MIME[container] };
}

function sniffContainer(head: Buffer): AudioContainer | undefined {
  if (ascii(head, 0, 3) === 'ID3') return afterId3(head);
  return sniffBare(head, 0);
}

/** What follows no tag: a container signature, or a run of MPEG/ADTS frames. */
function sniffBare(head: Buffer, at: number): AudioContainer | undefined {
  if (ascii(head, at, 4) === 'fLaC') return 'flac';
  if (ascii(head, at, 4) === 'RIFF' && ascii(head, at + 8, 4) === 'WAVE') return 'wav';
  if (ascii(head, at, 4) === 'OggS') return isOggAudio(head, at) ? 'ogg' : undefined;
  if (ascii(head, at + 4, 4) === 'ftyp' && MP4_BRANDS.has(ascii(head, at + 8, 4))) return 'm4a';
  if (isAdtsRun(head, at)) return 'aac';
  if (isMpegRun(head, at)) return 'mp3';
  return undefined;
}

/**
 * An ID3v2 tag (usually MP3, sometimes in front of FLAC or AAC). A sane header whose tag ends
 * beyond what we read is taken as MP3; the tag parser then decides whether audio follows.
 * A header with impossible sizes is damaged: only a run of real MPEG frames makes it MP3.
 */
function afterId3(head: Buffer): AudioContainer | undefined {
  const size = id3TagSize(head);
  if (size === undefined) return scanForMpegRun(head, 10);
  if (size >= head.length) return 'mp3';
  let at = size;
  // Some taggers pad with zeros beyond the declared size.
  while (at < head.length && head[at] === 0) at += 1;
  if (at >= head.length) return 'mp3';
  const inner = sniffBare(head, at);
  return inner === 'flac' || inner === 'aac' || inner === 'mp3' ? inner : scanForMpegRun(head, at);
}

/** The whole tag's length (header, body and optional footer), or undefined when the header is not valid. */
function id3TagSize(head: Buffer): number | undefined {
  if (head.length < 10) return undefined;
  const major = head[3] ?? 0;
  const revision = head[4] ?? 0;
  const flags = head[5] ?? 0;
  if (major < 2 || major > 4 || revision === 0xff) return undefined;
  let body = 0;
  for (let i = 6; i < 10; i += 1) {
    const byte = head[i] ?? 0xff;
    if (byte >= 0x80) return undefined;
    body = body * 128 + byte;
  }
  const footer = major === 4 && (flags & 0x10) !== 0 ? 10 : 0;
  return 10 + body + footer;
}

function isOggAudio(head: Buffer, at: number): boolean {
  // The first page carries one packet: the codec's identification header.
  const segments = head[at + 26];
  if (segments === undefined) return false;
  const packet = at + 27 + segments;
  return ascii(head, packet, 7) === '\x01vorbis' || ascii(head, packet, 8) === 'OpusHead';
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
  if (layer === 1) return (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4;
  const perFrame = layer === 3 && version !== 3 ? 72 : 144;
  return Math.floor((perFrame * kbps * 1000) / sampleRate) + padding;
}

/** A frame at `at` followed by another frame (or by the end of what we read). */
function isMpegRun(head: Buffer, at: number): boolean {
  const length = mpegFrameLength(head, at);
  if (length === undefined) return false;
  const next = at + length;
  return next + 4 > head.length || mpegFrameLength(head, next) !== undefined;
}

function scanForMpegRun(head: Buffer, from: number): AudioContainer | undefined {
  for (let at = from; at + 4 <= head.length; at += 1) {
    if (head[at] !== 0xff) continue;
    const length = mpegFrameLength(head, at);
    // Inside a scan, demand a real second frame: one lucky 0xFFE is not audio.
    if (length !== undefined && at + length + 4 <= head.length && mpegFrameLength(head, at + length) !== undefined) return 'mp3';
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
