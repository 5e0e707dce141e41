/**
 * What both labelled vocal sets share: a seeded random source, reading any audio file as mono
 * float samples (ffmpeg), writing WAV, placing voice phrases at known times, mixing a voice at
 * a known level under the music, and encoding the mix with a codec. The sets differ in how the
 * music and the voices are made (set-a.ts, set-b.ts), never in how a clip is labelled.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const MIX_RATE = 44_100;

export interface Clip {
  /** The encoded file the detector is run on. */
  file: string;
  /** True when a voice (sung, rapped or spoken) is in the clip. */
  voice: boolean;
  /** How the clip was made: voice style and level, the lead instrument, the codec. */
  description: string;
  /** Voice level relative to the music while the voice sounds (dB), for voiced clips. */
  voiceDb?: number;
}

export type Random = () => number;

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
export const between = (random: Random, low: number, high: number) => low + random() * (high - low);

/** Any audio file as mono float samples at `rate`. */
export async function readAudio(file: string, rate = MIX_RATE): Promise<Float32Array> {
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 30,
  });
  const copy = new Uint8Array(stdout.byteLength);
  copy.set(stdout);
  return new Float32Array(copy.buffer, 0, copy.byteLength >> 2);
}

/** 16-bit PCM WAV, mono. */
export async function writeWav(file: string, samples: Float32Array, rate = MIX_RATE): Promise<void> {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32_767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  await writeFile(file, Buffer.concat([header, data]));
}

/**
 * Lays phrases one after another from `start` seconds, `gap` seconds apart (drawn per gap),
 * cycling through them until `seconds` (less a second) is reached. Returns the voice track and
 * a mask of where it sounds.
 */
export function layPhrases(phrases: Float32Array[], seconds: number, random: Random, start: number, gap: [number, number]): Float32Array {
  const track = new Float32Array(Math.round(seconds * MIX_RATE));
  let at = Math.round(start * MIX_RATE);
  const end = track.length - MIX_RATE;
  for (let n = 0; at < end && phrases.length > 0; n++) {
    const phrase = phrases[n % phrases.length]!;
    const length = Math.min(phrase.length, end - at);
    track.set(phrase.subarray(0, length), at);
    at += length + Math.round(between(random, gap[0], gap[1]) * MIX_RATE);
  }
  return track;
}

/** RMS over the samples where `reference` is active (its 20-ms envelope above -40 dB of its peak). */
function activeRms(signal: Float32Array, reference: Float32Array): number {
  const block = Math.round(0.02 * MIX_RATE);
  const levels: number[] = [];
  for (let start = 0; start + block <= reference.length; start += block) {
    let sum = 0;
    for (let i = start; i < start + block; i++) sum += reference[i]! ** 2;
    levels.push(Math.sqrt(sum / block));
  }
  const peak = Math.max(...levels, 1e-9);
  let sum = 0;
  let count = 0;
  levels.forEach((level, index) => {
    if (level < peak * 0.01) return;
    for (let i = index * block; i < (index + 1) * block; i++) sum += signal[i]! ** 2;
    count += block;
  });
  return Math.sqrt(sum / Math.max(count, 1));
}

/**
 * music + voice, the voice scaled so that while it sounds its RMS is `voiceDb` relative to the
 * music's RMS over the same stretch; then the whole normalised to a peak of -1 dBFS.
 */
export function mix(music: Float32Array, voice: Float32Array | undefined, voiceDb: number): Float32Array {
  const out = new Float32Array(music);
  if (voice) {
    const gain = (activeRms(music, voice) / Math.max(activeRms(voice, voice), 1e-9)) * 10 ** (voiceDb / 20);
    for (let i = 0; i < out.length && i < voice.length; i++) out[i]! += voice[i]! * gain;
  }
  let peak = 1e-9;
  for (const sample of out) peak = Math.max(peak, Math.abs(sample));
  const scale = 0.89 / peak;
  for (let i = 0; i < out.length; i++) out[i]! *= scale;
  return out;
}

export const CODECS = {
  wav: { ext: 'wav', args: ['-c:a', 'pcm_s16le'] },
  flac: { ext: 'flac', args: ['-c:a', 'flac'] },
  'mp3-128': { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  'mp3-64': { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
  'mp3-48-22k': { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '48k', '-ar', '22050'] },
  'opus-32': { ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '32k'] },
  'opus-24': { ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '24k'] },
  'aac-48': { ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '48k'] },
  'vorbis-q0': { ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '0'] },
} as const;
export type Codec = keyof typeof CODECS;

/** Encodes a WAV with one of `CODECS`; returns the encoded file's path (`base` + extension). */
export async function encode(wav: string, base: string, codec: Codec): Promise<string> {
  const { ext, args } = CODECS[codec];
  const file = `${base}.${ext}`;
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', wav, ...args, file]);
  return file;
}

/** A pool of `width` workers over `items`. */
export async function inPool<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}
