import type { Readable } from 'node:stream';
import { ffmpegFeatures, type FfmpegHealth } from '@encore/common/http.contract';
import type { Logger } from '../logger.js';
import { readCapabilities, type FfmpegCapabilities } from './ffmpeg.capabilities.js';
import { decodeToPcm, type DecodeOptions } from './ffmpeg.decode.js';
import { firstCandidate, locateFfmpeg, type LocatedFfmpeg, type LocateOptions } from './ffmpeg.locate.js';
import { readCachedProbe, writeCachedProbe } from './ffmpeg.probe-cache.js';
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
  /** ffmpeg processes of run and start running now (transcodes, renders, probes): the metrics' gauge. */
  running(): number;
}

export function createFfmpeg(options: LocateOptions & { logger: Logger }): Ffmpeg {
  const { logger, ...locate } = options;
  let found: Promise<FfmpegInfo> | undefined;
  const info = () => {
    found ??= (async () => {
      // The binary probed at an earlier start, when it is still the one that would be tried first.
      const candidate = await firstCandidate(locate);
      const cached = candidate ? await readCachedProbe(locate.dataDir, candidate) : undefined;
      if (cached) return cached;
      const located = await locateFfmpeg(locate);
      const probed = { ...located, ...(await readCapabilities(located.path)) };
      logger.info({ path: probed.path, source: probed.source, version: probed.version, lacks: probed.lacks }, 'ffmpeg found');
      await writeCachedProbe(locate.dataDir, probed).catch((error: unknown) =>
        logger.warn({ err: error }, 'could not keep the ffmpeg probe for the next start'),
      );
      return probed;
    })().catch((error: unknown) => {
      found = undefined; // the next call looks again (a fixed FFMPEG_PATH, a package installed meanwhile)
      logger.warn({ err: error }, 'no usable ffmpeg');
      throw error;
    });
    return found;
  };
  const binary = async () => (await info()).path;
  let running = 0;
  return {
    running: () => running,
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
      const path = await binary();
      running += 1;
      try {
        await runFfmpeg(path, args, runOptions);
      } finally {
        running -= 1;
      }
    },
    async start(args, runOptions) {
      const started = await startFfmpeg(await binary(), args, runOptions);
      running += 1;
      const ended = () => {
        running -= 1;
      };
      started.done.then(ended, ended);
      return started;
    },
    decodeToPcm(source, decodeOptions) {
      return decodeToPcm(binary(), source, decodeOptions);
    },
  };
}
