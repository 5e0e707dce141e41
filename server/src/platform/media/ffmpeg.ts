import type { Readable } from 'node:stream';
import { ffmpegFeatures, type FfmpegHealth } from '@encore/common/http.contract';
import type { Logger } from '../logger.js';
import { readCapabilities, type FfmpegCapabilities } from './ffmpeg.capabilities.js';
import { decodeToPcm, type DecodeOptions } from './ffmpeg.decode.js';
import { locateFfmpeg, type LocatedFfmpeg, type LocateOptions } from './ffmpeg.locate.js';
import { runFfmpeg, startFfmpeg, type FfmpegRunOptions, type RunningFfmpeg } from './ffmpeg.run.js';

export type FfmpegInfo = LocatedFfmpeg & FfmpegCapabilities;

/** ffmpeg as a platform component: found once, probed once, run with arguments as arrays. */
export interface Ffmpeg {
  /** The binary, where it came from, its version and capabilities; rejects with kind 'unavailable'. */
  info(): Promise<FfmpegInfo>;
  health(): Promise<FfmpegHealth>;
  run(args: readonly string[], options?: Omit<FfmpegRunOptions, 'stdout'>): Promise<void>;
  start(args: readonly string[], options?: FfmpegRunOptions): Promise<RunningFfmpeg>;
  decodeToPcm(source: string | Readable, options: DecodeOptions): Readable;
}

export function createFfmpeg(options: LocateOptions & { logger: Logger }): Ffmpeg {
  const { logger, ...locate } = options;
  let found: Promise<FfmpegInfo> | undefined;
  const info = () => {
    found ??= (async () => {
      const located = await locateFfmpeg(locate);
      const capabilities = await readCapabilities(located.path);
      logger.info({ path: located.path, source: located.source, version: located.version, lacks: capabilities.lacks }, 'ffmpeg found');
      return { ...located, ...capabilities };
    })().catch((error: unknown) => {
      found = undefined; // the next call looks again (a fixed FFMPEG_PATH, a package installed meanwhile)
      logger.warn({ err: error }, 'no usable ffmpeg');
      throw error;
    });
    return found;
  };
  const binary = async () => (await info()).path;
  return {
    info,
    async health() {
      try {
        const { source, version, lacks } = await info();
        return { status: 'ok', driver: 'ffmpeg', source, version, lacks };
      } catch (error) {
        return { status: 'error', driver: 'ffmpeg', detail: error instanceof Error ? error.message : 'ffmpeg not found', lacks: [...ffmpegFeatures] };
      }
    },
    async run(args, runOptions) {
      await runFfmpeg(await binary(), args, runOptions);
    },
    async start(args, runOptions) {
      return startFfmpeg(await binary(), args, runOptions);
    },
    decodeToPcm(source, decodeOptions) {
      return decodeToPcm(binary(), source, decodeOptions);
    },
  };
}
