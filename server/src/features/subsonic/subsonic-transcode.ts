import type { Readable, Writable } from 'node:stream';
import { watchStalledReader } from '../../platform/streams/stalled-reader.js';
import type { Ffmpeg } from '../../platform/media/ffmpeg.js';
import { SubsonicError } from './subsonic-errors.js';
import type { SubsonicParams } from './subsonic-params.js';

/** The codecs `stream` transcodes to: Opus in Ogg (the better one for phones), MP3 for old clients. */
export type TranscodeCodec = 'opus' | 'mp3';

/** What `stream` sends: the file's own bytes (with Range), or ffmpeg's output as it comes. */
export type StreamPlan = { kind: 'original' } | { kind: 'transcode'; codec: TranscodeCodec; kbps: number; offsetSeconds: number };

export const TRANSCODE_TYPES: Record<TranscodeCodec, string> = { opus: 'audio/ogg', mp3: 'audio/mpeg' };

/** Bit rates asked are clamped to this (kbit/s); libopus takes at most 256 per stereo stream. */
const MIN_KBPS = 32;
const MAX_KBPS: Record<TranscodeCodec, number> = { opus: 256, mp3: 320 };
/** The rate when a format is asked without maxBitRate (Navidrome's defaults). */
const DEFAULT_KBPS: Record<TranscodeCodec, number> = { opus: 128, mp3: 192 };
/** A timeOffset with nothing else asked: Opus at this rate, transparent for most ears. */
const OFFSET_KBPS = 192;

/** The parts of a song the choice reads. */
export interface StreamedSong {
  fileType: string;
  fileName: string;
  /** bit/s, as the tags gave it; null when unknown. */
  bitrate: number | null;
}

/**
 * The Subsonic `stream` rules:
 * - `format=raw` → the original (a `timeOffset` is then ignored: raw is asked explicitly).
 * - `format=mp3|opus` → that codec at `maxBitRate` (or its default), unless the file already is
 *   that codec and no lower `maxBitRate` nor `timeOffset` is asked: then the original.
 * - no format, a `maxBitRate` lower than the file's (or the file's unknown) → Opus at that rate.
 * - `timeOffset` > 0 (transcodeOffset extension) → a transcode starting there (Opus at
 *   `maxBitRate` or 192 kbit/s when no format is asked).
 * - anything else, an unknown format included → the original.
 */
export function streamPlan(song: StreamedSong, params: SubsonicParams): StreamPlan {
  const format = params.get('format')?.trim().toLowerCase() ?? '';
  const maxBitRate = Math.max(params.int('maxBitRate', 0), 0);
  const offsetSeconds = Math.max(params.int('timeOffset', 0), 0);
  if (format === 'raw') return { kind: 'original' };
  const lower = maxBitRate > 0 && (song.bitrate === null || song.bitrate <= 0 || maxBitRate * 1000 < song.bitrate);
  if (format === 'mp3' || format === 'opus') {
    if (!lower && offsetSeconds === 0 && codecOf(song) === format) return { kind: 'original' };
    return { kind: 'transcode', codec: format, kbps: clampKbps(format, maxBitRate > 0 ? maxBitRate : DEFAULT_KBPS[format]), offsetSeconds };
  }
  if (format !== '') return { kind: 'original' };
  if (lower) return { kind: 'transcode', codec: 'opus', kbps: clampKbps('opus', maxBitRate), offsetSeconds };
  if (offsetSeconds > 0) return { kind: 'transcode', codec: 'opus', kbps: clampKbps('opus', maxBitRate > 0 ? maxBitRate : OFFSET_KBPS), offsetSeconds };
  return { kind: 'original' };
}

function clampKbps(codec: TranscodeCodec, kbps: number): number {
  return Math.min(Math.max(kbps, MIN_KBPS), MAX_KBPS[codec]);
}

/** The file's codec when it is one of those transcoded to (an Ogg file is Opus only when named so). */
function codecOf(song: StreamedSong): TranscodeCodec | undefined {
  if (song.fileType === 'audio/mpeg') return 'mp3';
  if (song.fileType === 'audio/opus' || (song.fileType === 'audio/ogg' && /\.opus$/i.test(song.fileName))) return 'opus';
  return undefined;
}

/** ffmpeg's arguments for a plan: the first audio stream only, from `offsetSeconds` (input seeking), to stdout. */
export function transcodeArgs(file: string, plan: Extract<StreamPlan, { kind: 'transcode' }>): string[] {
  const seek = plan.offsetSeconds > 0 ? ['-ss', String(plan.offsetSeconds)] : [];
  const codec =
    plan.codec === 'opus'
      ? ['-c:a', 'libopus', '-b:a', `${plan.kbps}k`, '-f', 'ogg']
      : // LAME takes one or two channels.
        ['-ac', '2', '-c:a', 'libmp3lame', '-b:a', `${plan.kbps}k`, '-f', 'mp3'];
  return [...seek, '-i', `file:${file}`, '-map', '0:a:0', '-vn', '-map_metadata', '-1', ...codec, 'pipe:1'];
}

/** Streams transcoded at once in this process; one more is refused (error 0) rather than slowing all. */
export const MAX_TRANSCODES = 4;
/** A stream is stopped after this long (a client that reads a 3-hour mix very slowly). */
const TRANSCODE_TIMEOUT_MS = 6 * 60 * 60_000;
export const TOO_MANY_STREAMS = 'Too many streams at once';

export interface TranscodeSlots {
  /** Streams transcoded at once in this process. */
  perProcess: number;
  /** Of those, streams one user may hold (so one user cannot hold them all). */
  perUser: number;
  /** A stream whose client reads nothing for this long is ended, and its slot given back. */
  idleMs: number;
}

/**
 * Runs the transcodes of `stream`, at most `perProcess` at once and `perUser` of one user.
 * `send` is given ffmpeg's output once its first bytes are there (so a file ffmpeg cannot read
 * is still an error answer) and returns where the output goes; a client that reads nothing
 * from there for `idleMs` has its stream ended. The returned promise settles when ffmpeg has
 * ended, which is when the input file may go and the slot is free.
 */
export class StreamTranscoder {
  private running = 0;
  private readonly byUser = new Map<number, number>();

  constructor(
    private readonly ffmpeg: Ffmpeg,
    private readonly slots: TranscodeSlots,
  ) {}

  get active(): number {
    return this.running;
  }

  async run(
    userId: number,
    file: string,
    plan: Extract<StreamPlan, { kind: 'transcode' }>,
    signal: AbortSignal,
    send: (output: Readable) => Writable,
  ): Promise<void> {
    const mine = this.byUser.get(userId) ?? 0;
    if (this.running >= this.slots.perProcess || mine >= this.slots.perUser) throw new SubsonicError(0, TOO_MANY_STREAMS);
    this.running += 1;
    this.byUser.set(userId, mine + 1);
    try {
      const ffmpeg = await this.ffmpeg.start(transcodeArgs(file, plan), { stdout: 'pipe', signal, timeoutMs: TRANSCODE_TIMEOUT_MS });
      const output = ffmpeg.stdout;
      if (!output) {
        await ffmpeg.done;
        throw new SubsonicError(0, 'The song could not be transcoded');
      }
      const first = await Promise.race([
        new Promise<'data'>((resolve) => output.once('readable', () => resolve('data'))),
        ffmpeg.done.then(
          () => 'ended' as const,
          () => 'failed' as const,
        ),
      ]);
      if (first === 'failed') throw new SubsonicError(0, 'The song could not be transcoded');
      const destination = send(output);
      // The client reads nothing: its answer ends there (the connection with it) and ffmpeg stops.
      const unwatch = watchStalledReader(destination, this.slots.idleMs, () => {
        destination.destroy();
        ffmpeg.stop();
      });
      await ffmpeg.done.catch(() => undefined); // a client gone mid-song is not an error of ours
      unwatch();
    } finally {
      this.running -= 1;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    }
  }
}
