/**
 * Why an ffmpeg run did not succeed. `message` is one line a log or a task's error can show:
 * ffmpeg's own first error, with memory addresses dropped and the files Encore passed cut to
 * their names. The whole stderr tail stays in `stderrTail` for the logs.
 */
export type FfmpegErrorKind = 'unavailable' | 'failed' | 'timeout' | 'cancelled';

export class FfmpegError extends Error {
  override name = 'FfmpegError';

  constructor(
    readonly kind: FfmpegErrorKind,
    message: string,
    readonly details: { exitCode?: number | null; signal?: string | null; stderrTail?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get stderrTail(): string {
    return this.details.stderrTail ?? '';
  }
}

const MAX_REASON = 200;

/**
 * The line that says why ffmpeg failed: its first `[error]`/`[fatal]` line (the cause; later
 * ones are consequences such as "Invalid argument"), without the `[demuxer @ 0x…]` context,
 * and with every path from `args` replaced by its last segment.
 */
export function failureReason(stderrTail: string, args: readonly string[]): string | undefined {
  const line = stderrTail.split('\n').find((candidate) => /\[(error|fatal)\]/.test(candidate));
  if (line === undefined) return undefined;
  let reason = line
    .replace(/\[[^\]]*@ 0x[0-9a-f]+\]\s*/g, '')
    .replace(/\[(error|fatal)\]\s*/g, '')
    .trim();
  const paths = args
    .map((arg) => arg.replace(/^file:/, ''))
    .filter((arg) => arg.includes('/') && arg.length > 1)
    .sort((a, b) => b.length - a.length);
  for (const full of paths) {
    const name = full.split('/').filter(Boolean).pop() ?? '';
    reason = reason.split(`file:${full}`).join(name).split(full).join(name);
  }
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason || undefined;
}
