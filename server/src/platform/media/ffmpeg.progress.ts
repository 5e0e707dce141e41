/** One report of `-progress`: ffmpeg writes a block of `key=value` lines ending in `progress=…`. */
export interface FfmpegProgress {
  /** Seconds of output written so far. */
  outSeconds: number;
  /** 0-100 when the total duration is known, else undefined; 100 only on the last report. */
  percent: number | undefined;
  /** Times real time ("2.5x" is 2.5), when ffmpeg knows it. */
  speed: number | undefined;
  /** True on the last report, once ffmpeg has written everything. */
  done: boolean;
}

/**
 * Turns the `-progress` stream into reports. Feed it chunks as they come; lines may be split
 * anywhere. The total duration may be learnt late (from the input's Duration line): `setTotal`.
 */
export class ProgressParser {
  private pending = '';
  private block = new Map<string, string>();

  constructor(
    private readonly onProgress: (progress: FfmpegProgress) => void,
    private totalSeconds?: number,
  ) {}

  setTotal(seconds: number): void {
    if (this.totalSeconds === undefined && Number.isFinite(seconds) && seconds > 0) this.totalSeconds = seconds;
  }

  push(chunk: string): void {
    const lines = (this.pending + chunk).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line.trim());
  }

  private line(line: string): void {
    const at = line.indexOf('=');
    if (at <= 0) return;
    const key = line.slice(0, at);
    const value = line.slice(at + 1).trim();
    if (key !== 'progress') {
      this.block.set(key, value);
      return;
    }
    const block = this.block;
    this.block = new Map();
    const done = value === 'end';
    const outSeconds = outTime(block);
    if (outSeconds === undefined && !done) return;
    this.onProgress({ outSeconds: outSeconds ?? 0, percent: this.percent(outSeconds ?? 0, done), speed: speed(block.get('speed')), done });
  }

  private percent(outSeconds: number, done: boolean): number | undefined {
    if (done) return 100;
    if (this.totalSeconds === undefined) return undefined;
    return Math.min(99.9, Math.round((outSeconds / this.totalSeconds) * 1000) / 10);
  }
}

/** `out_time_us` (ffmpeg 4.2+); before that `out_time_ms`, which despite its name is in microseconds too. */
function outTime(block: Map<string, string>): number | undefined {
  const micros = Number(block.get('out_time_us') ?? block.get('out_time_ms'));
  if (Number.isFinite(micros) && micros >= 0) return micros / 1_000_000;
  return undefined;
}

function speed(value: string | undefined): number | undefined {
  const parsed = Number.parseFloat(value ?? '');
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

/** `Duration: 00:03:25.47` in ffmpeg's description of its first input, in seconds. */
export function durationFromLog(text: string): number | undefined {
  const match = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}
