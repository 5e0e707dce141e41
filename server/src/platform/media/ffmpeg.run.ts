import { spawn } from 'node:child_process';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { failureReason, FfmpegError } from './ffmpeg.error.js';
import { durationFromLog, ProgressParser, type FfmpegProgress } from './ffmpeg.progress.js';
import { holdErrors } from '../streams/hold-errors.js';

export interface FfmpegRunOptions {
  /** Stop ffmpeg after this long. Default 10 minutes: pass what the work needs (hours for a 4K render). */
  timeoutMs?: number;
  /** Aborting stops ffmpeg (SIGTERM, then SIGKILL) and rejects `done` with kind 'cancelled'. */
  signal?: AbortSignal;
  /** Seconds of output expected, for percent; else the first input's Duration when ffmpeg reports one. */
  durationSeconds?: number;
  onProgress?: (progress: FfmpegProgress) => void;
  /** Piped into ffmpeg's stdin (an input of `pipe:0`); destroyed once ffmpeg exits. */
  stdin?: Readable;
  /** 'pipe' exposes what ffmpeg writes to `pipe:1` as `stdout`; default 'ignore'. */
  stdout?: 'pipe' | 'ignore';
  /** How long ffmpeg gets to exit after SIGTERM before SIGKILL. Default 2 s. */
  killGraceMs?: number;
  /**
   * The OS scheduling priority (nice value, -20..19) ffmpeg runs at: background work (the
   * sonic analysis's decodes) gives way to serving. Default: the caller's.
   */
  priority?: number;
}

export interface RunningFfmpeg {
  readonly pid: number | undefined;
  /** ffmpeg's `pipe:1` when `stdout: 'pipe'`; it must be read (or destroyed) for ffmpeg to finish. */
  readonly stdout: Readable | null;
  /** Resolves when ffmpeg exited with status 0; rejects with an FfmpegError otherwise. */
  readonly done: Promise<void>;
  /** Stops ffmpeg as a cancellation. */
  stop(): void;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_KILL_GRACE_MS = 2000;
const DRAIN_MS = 1000;
const TAIL_LINES = 40;
const MAX_ERROR_LINES = 20;
/** Only local files and pipes; the whitelist is inherited by nested opens (HLS segments, concat entries). */
export const PROTOCOL_WHITELIST = 'file,pipe';
/** Options the runner sets itself, so a caller cannot weaken or hide them. */
const RESERVED = new Set(['-protocol_whitelist', '-protocol_blacklist', '-progress', '-loglevel', '-v', '-nostdin', '-stdin']);

/**
 * Runs ffmpeg with arguments as an array (no shell), `-protocol_whitelist file,pipe` in front
 * of every input, a time limit, cancellation, and progress from `-progress pipe:3`.
 */
export function startFfmpeg(binary: string, args: readonly string[], options: FfmpegRunOptions = {}): RunningFfmpeg {
  const fullArgs = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'level+info', '-progress', 'pipe:3', ...guardInputs(args)];
  if (options.signal?.aborted) {
    options.stdin?.destroy();
    return { pid: undefined, stdout: null, done: Promise.reject(cancelled(options.signal)), stop() {} };
  }
  const child = spawn(binary, fullArgs, {
    stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ?? 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (options.priority !== undefined && child.pid !== undefined) lowerPriority(child.pid, options.priority);

  // Both are 'pipe' in stdio above, so never null. Read for what they say; a pipe failing
  // (rare) must not end the process: ffmpeg's exit tells what went wrong.
  const stderr = holdErrors(child.stderr as Readable);
  const progressPipe = holdErrors(child.stdio[3] as Readable);
  const log = new StderrLog();
  const progress = new ProgressParser((report) => options.onProgress?.(report), options.durationSeconds);
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of log.push(chunk)) {
      const seconds = durationFromLog(line);
      if (seconds !== undefined) progress.setTotal(seconds);
    }
  });
  progressPipe.setEncoding('utf8').on('data', (chunk: string) => progress.push(chunk));

  let stopReason: 'timeout' | 'cancelled' | 'input' | undefined;
  let inputError: unknown;
  let killTimer: NodeJS.Timeout | undefined;
  let exited = false;
  const stop = (reason: NonNullable<typeof stopReason>) => {
    if (exited || stopReason) return;
    stopReason = reason;
    // ffmpeg blocked writing to a full pipe would not notice SIGTERM; a closed pipe it does.
    child.stdout?.destroy();
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  if (options.stdin && child.stdin) {
    const input = options.stdin;
    child.stdin.on('error', () => undefined); // EPIPE when ffmpeg stops reading early; its exit status tells
    input.on('error', (error) => {
      inputError ??= error;
      stop('input');
    });
    // Not pipeline(): ffmpeg closing its stdin early (EPIPE) is no failure of the input; both
    // streams are listened to for errors just above.
    // eslint-disable-next-line no-restricted-syntax -- both ends' errors are listened to above
    input.pipe(child.stdin);
  }

  const done = new Promise<void>((resolve, reject) => {
    child.once('exit', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.stdin) {
        options.stdin.unpipe();
        options.stdin.destroy();
      }
      // Let ffmpeg's last words and last progress report arrive before deciding (briefly: a
      // process it left behind could hold the pipes open).
      const drained = Promise.all([finished(stderr).catch(() => undefined), finished(progressPipe).catch(() => undefined)]);
      void Promise.race([drained, delay(DRAIN_MS)]).then(() => {
        stderr.destroy();
        progressPipe.destroy();
        if (stopReason === 'timeout')
          return reject(new FfmpegError('timeout', `ffmpeg took longer than ${seconds(timeoutMs)} and was stopped`, { signal, stderrTail: log.tail() }));
        if (stopReason === 'cancelled') return reject(cancelled(options.signal, log.tail(), signal));
        if (stopReason === 'input')
          return reject(new FfmpegError('failed', 'ffmpeg could not be given its input', { cause: inputError, stderrTail: log.tail() }));
        if (code === 0) return resolve();
        const reason = failureReason(log.errors(), args) ?? (signal ? `killed by ${signal}` : `exit status ${code}`);
        reject(new FfmpegError('failed', `ffmpeg failed: ${reason}`, { exitCode: code, signal, stderrTail: log.tail() }));
      });
    });
    // spawn failures (ENOENT, EACCES) come as 'error' with no 'exit'.
    child.once('error', (error) => {
      if (exited || child.pid !== undefined) return; // a running process ends with 'exit'
      exited = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      options.stdin?.destroy();
      reject(new FfmpegError('unavailable', `ffmpeg could not be started (${errorCode(error)})`, { cause: error }));
    });
  });

  return { pid: child.pid, stdout: child.stdout, done, stop: () => stop('cancelled') };
}

/** Runs ffmpeg to the end (its stdout, if piped, is discarded). */
export async function runFfmpeg(binary: string, args: readonly string[], options: Omit<FfmpegRunOptions, 'stdout'> = {}): Promise<void> {
  await startFfmpeg(binary, args, { ...options, stdout: 'ignore' }).done;
}

/** Sets a process's nice value; where the OS refuses (a value below the current one without privileges), it runs as it is. */
function lowerPriority(pid: number, priority: number): void {
  try {
    os.setPriority(pid, priority);
  } catch {
    // Not worth failing the work for: it only runs at the caller's priority.
  }
}

/** Puts `-protocol_whitelist file,pipe` among the options of every input (`-i`). */
export function guardInputs(args: readonly string[]): string[] {
  const guarded: string[] = [];
  for (const arg of args) {
    if (RESERVED.has(arg)) throw new TypeError(`ffmpeg option ${arg} is set by the runner`);
    if (arg === '-i') guarded.push('-protocol_whitelist', PROTOCOL_WHITELIST);
    guarded.push(arg);
  }
  return guarded;
}

/** `exitSignal`: what ended the process (null when it exited on SIGTERM by itself, 'SIGKILL' when it had to be killed). */
function cancelled(signal: AbortSignal | undefined, stderrTail = '', exitSignal: NodeJS.Signals | null = null): FfmpegError {
  return new FfmpegError('cancelled', 'ffmpeg was cancelled', { cause: signal?.reason, stderrTail, signal: exitSignal });
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
}

/** The last lines of ffmpeg's log, and its error lines, without keeping the whole log. */
class StderrLog {
  private pending = '';
  private lines: string[] = [];
  private errorLines: string[] = [];

  /** Takes a chunk, returns the complete lines it finished. */
  push(chunk: string): string[] {
    const lines = (this.pending + chunk).split(/\r?\n|\r/);
    this.pending = lines.pop() ?? '';
    if (this.pending.length > 4096) this.pending = this.pending.slice(-4096);
    for (const line of lines) {
      if (!line.trim()) continue;
      this.lines.push(line);
      if (this.lines.length > TAIL_LINES) this.lines.shift();
      if (this.errorLines.length < MAX_ERROR_LINES && /\[(error|fatal)\]/.test(line)) this.errorLines.push(line);
    }
    return lines;
  }

  tail(): string {
    return [...this.lines, this.pending].filter(Boolean).join('\n');
  }

  errors(): string {
    return [...this.errorLines, this.pending].filter(Boolean).join('\n');
  }
}
