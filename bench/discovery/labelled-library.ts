/** Builds the evaluation's labelled library: songs synthesised by ffmpeg (and espeak-ng for vocals) with known labels. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Labels {
  fast: boolean;
  loud: boolean;
  major: boolean;
  bright: boolean;
  vocals: boolean;
  genre: 'Rock' | 'Jazz' | 'Electronic' | 'Folk';
  decade: 1970 | 1980 | 1990 | 2010;
  bpm: number;
}

const GENRES: Labels['genre'][] = ['Rock', 'Jazz', 'Electronic', 'Folk'];
const DECADES: Labels['decade'][] = [1970, 1980, 1990, 2010];
const ROOTS = [196, 220, 246.94, 261.63, 293.66, 329.63];
/** The words the voices of the songs with vocals say, in turn: their lyrics. */
export const LINES = [
  'I walked along the river in the morning light and sang about the city and the sea',
  'Hold on to me tonight, the stars are falling down and we are dancing in the rain',
  'Nobody knows the way back home, the road is long and the night is cold',
];

/** Labels drawn independently with a fixed seed, so every run builds the same library. */
export function drawLabels(count: number): Labels[] {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const fast = random() < 0.5;
    return {
      fast,
      loud: random() < 0.5,
      major: random() < 0.5,
      bright: random() < 0.5,
      vocals: random() < 0.4,
      genre: GENRES[Math.floor(random() * GENRES.length)]!,
      decade: DECADES[Math.floor(random() * DECADES.length)]!,
      bpm: Math.round(fast ? 130 + random() * 30 : 66 + random() * 24),
    };
  });
}

/** Writes song `index` (an MP3 of `seconds`) with these labels into `dir`; returns its path. */
export async function synthesise(dir: string, index: number, labels: Labels, seconds: number): Promise<string> {
  const period = 60 / labels.bpm;
  const root = ROOTS[index % ROOTS.length]!;
  const third = root * Math.pow(2, (labels.major ? 4 : 3) / 12);
  const fifth = root * Math.pow(2, 7 / 12);
  const gain = labels.loud ? 1 : 0.08;
  const kick = `0.6*sin(2*PI*55*t)*exp(-25*mod(t,${period}))`;
  const snare = `0.25*(2*random(0)-1)*exp(-30*mod(t+${period},${2 * period}))`;
  const hats = labels.bright ? `+0.22*(2*random(1)-1)*exp(-60*mod(t+${period / 2},${period}))+0.05*sin(2*PI*${root * 8}*t)` : '';
  const chord = `0.12*(sin(2*PI*${root}*t)+sin(2*PI*${third}*t)+sin(2*PI*${fifth}*t)+0.5*sin(2*PI*${root * 2}*t))`;
  const music = `${gain}*(${kick}+${snare}${hats}+${chord})`;
  const file = path.join(dir, `track-${String(index).padStart(2, '0')}.mp3`);
  const filter = labels.bright ? 'anull' : 'lowpass=f=1800';
  if (!labels.vocals) {
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `aevalsrc='${music}':s=44100:d=${seconds}`,
      '-af',
      filter,
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      file,
    ]);
    return file;
  }
  const speech = path.join(dir, `voice-${index}.wav`);
  await run('espeak-ng', ['-s', '150', '-p', String(30 + (index % 5) * 10), '-w', speech, LINES[index % LINES.length]!]);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${music}':s=44100:d=${seconds}`,
    '-stream_loop',
    '-1',
    '-i',
    speech,
    '-filter_complex',
    `[0:a]${filter}[m];[1:a]aresample=44100,volume=${labels.loud ? 1.2 : 0.12}[v];[m][v]amix=inputs=2:duration=first:normalize=0`,
    '-t',
    String(seconds),
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    file,
  ]);
  return file;
}
