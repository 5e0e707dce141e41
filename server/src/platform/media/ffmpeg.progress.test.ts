import { describe, expect, it } from 'vitest';
import { durationFromLog, ProgressParser, type FfmpegProgress } from './ffmpeg.progress.js';

const block = (outUs: string, progress: string, speed = ' 2.5x') =>
  `frame=0\nout_time_us=${outUs}\nout_time_ms=${outUs}\nout_time=00:00:00.000000\nspeed=${speed}\nprogress=${progress}\n`;

describe('ProgressParser', () => {
  it('reports percent of the total and speed, and 100 only at the end, from lines split anywhere', () => {
    const seen: FfmpegProgress[] = [];
    const parser = new ProgressParser((progress) => seen.push(progress), 10);
    const text = block('2500000', 'continue') + block('10000000', 'continue', 'N/A') + block('10000000', 'end');
    for (let i = 0; i < text.length; i += 7) parser.push(text.slice(i, i + 7));
    expect(seen).toEqual([
      { outSeconds: 2.5, percent: 25, speed: 2.5, done: false },
      { outSeconds: 10, percent: 99.9, speed: undefined, done: false },
      { outSeconds: 10, percent: 100, speed: 2.5, done: true },
    ]);
  });

  it('reads ffmpeg 4.1 blocks (out_time_ms in microseconds) and a total learnt late', () => {
    const seen: FfmpegProgress[] = [];
    const parser = new ProgressParser((progress) => seen.push(progress));
    parser.push('out_time_ms=1000000\nprogress=continue\n');
    parser.setTotal(4);
    parser.push('out_time_ms=N/A\nprogress=continue\nout_time_ms=2000000\nprogress=continue\n');
    expect(seen.map((p) => p.percent)).toEqual([undefined, 50]);
  });

  it('reads the Duration of the first input from the log', () => {
    expect(durationFromLog("[info] Input #0, wav, from 'x':\n[info]   Duration: 01:02:03.50, bitrate: 705 kb/s")).toBe(3723.5);
    expect(durationFromLog('[info]   Duration: N/A, bitrate: N/A')).toBeUndefined();
  });
});
