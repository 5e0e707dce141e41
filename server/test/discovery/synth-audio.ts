import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SynthSpec {
  bpm: number;
  /** Tonic frequency in Hz and the chord's quality. */
  rootHz: number;
  mode: 'major' | 'minor';
  /** Overall gain in dB (0 = loud, -24 = quiet). */
  gainDb: number;
  seconds: number;
  /** Adds hi-hat noise on the off-beats (brighter, denser). */
  hats?: boolean;
}

/**
 * A song with known truth, made by ffmpeg: a kick drum on every beat at `bpm`, optional
 * hi-hats on the off-beats, and a sustained triad (root, third, fifth) of the given mode.
 * Written as a 128 kb/s MP3.
 */
export async function synthSong(file: string, spec: SynthSpec): Promise<void> {
  const period = 60 / spec.bpm;
  const third = spec.rootHz * Math.pow(2, (spec.mode === 'major' ? 4 : 3) / 12);
  const fifth = spec.rootHz * Math.pow(2, 7 / 12);
  const gain = Math.pow(10, spec.gainDb / 20);
  const kick = `0.6*sin(2*PI*55*t)*exp(-25*mod(t,${period}))`;
  const hats = spec.hats ? `+0.25*(2*random(0)-1)*exp(-70*mod(t+${period / 2},${period}))` : '';
  const chord = `0.12*(sin(2*PI*${spec.rootHz}*t)+sin(2*PI*${third}*t)+sin(2*PI*${fifth}*t)+0.5*sin(2*PI*${spec.rootHz * 2}*t))`;
  const expression = `${gain}*(${kick}${hats}+${chord})`;
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${expression}':s=44100:d=${spec.seconds}`,
    '-ac',
    '2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    file,
  ]);
}

/** ffmpeg's own EBU R128 measurement of a file (the reference Encore's loudness is checked against). */
export async function ffmpegLoudness(file: string): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128', '-f', 'null', '-']);
  const match = /I:\s+(-?[\d.]+) LUFS/u.exec(stderr.split('Summary:').pop() ?? '');
  if (!match) throw new Error('ffmpeg printed no loudness');
  return Number(match[1]);
}
