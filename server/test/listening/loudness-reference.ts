import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What ffmpeg's own EBU R128 meter (the ebur128 filter) says of a file: the reference Encore's measurement is checked against. */
export interface Ebur128Summary {
  integratedLufs: number;
  rangeLu: number;
  samplePeakDb: number;
  truePeakDb: number;
}

/** `dualMono`: a mono file measured as played on two speakers (ebur128's dualmono option). */
export async function ebur128(file: string, options: { dualMono?: boolean } = {}): Promise<Ebur128Summary> {
  const filter = `ebur128=peak=sample+true${options.dualMono ? ':dualmono=true' : ''}`;
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', filter, '-f', 'null', '-']);
  const summary = stderr.split('Summary:').pop() ?? '';
  const number = (pattern: RegExp) => {
    const match = pattern.exec(summary);
    if (!match) throw new Error(`ffmpeg's summary lacks ${pattern.source}: ${summary}`);
    return Number(match[1]);
  };
  return {
    integratedLufs: number(/I:\s+(-?[\d.]+) LUFS/u),
    rangeLu: number(/LRA:\s+(-?[\d.]+) LU/u),
    samplePeakDb: number(/Sample peak:\s+Peak:\s+(-?[\d.]+) dBFS/u),
    truePeakDb: number(/True peak:\s+Peak:\s+(-?[\d.]+) dBFS/u),
  };
}

/** Runs ffmpeg to make a test file (lavfi sources, tags...). */
export async function makeAudio(args: readonly string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

export const toDb = (linear: number) => 20 * Math.log10(linear);
