import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PlaybackLoudness } from '../discovery.schema.js';
import { ANALYSIS_PRIORITY, type FromWorker, type ToWorker } from './analysis-messages.js';
import type { AnalysedFile, MeasureRequest } from './measure-file.js';

export interface AnalysisPoolOptions {
  /** The ffmpeg binary the threads' decodes run. */
  ffmpegPath: () => Promise<string>;
  /** Requests are being served (platform/load/request-activity.ts): one thread at most. */
  busy: () => boolean;
  /** Threads when nothing is served; default the machine's cores less one (at least one). */
  maxThreads?: number;
  /** A thread idle this long ends (its WASM heap goes with it); default 30 s. */
  idleMs?: number;
}

/** The pool was closed (the process is stopping): the work is not the file's fault. */
export class AnalysisPoolClosedError extends Error {
  constructor() {
    super('The analysis threads are closed');
  }
}

/** A cancelled measurement, told apart from a file's failure. */
export class AnalysisCancelledError extends Error {}

interface Thread {
  worker: Worker;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Runs measurements (analysis.worker.ts) on threads of their own, never on the server's: at
 * most one at a time while requests are being served, up to `maxThreads` when none are. The
 * threads (and their decodes) run at a lower OS priority; each ends after `idleMs` unused.
 */
export class AnalysisPool {
  private readonly idle: Thread[] = [];
  private readonly threads = new Set<Thread>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private nextId = 1;
  private closed = false;
  readonly maxThreads: number;

  constructor(private readonly options: AnalysisPoolOptions) {
    this.maxThreads = Math.max(1, options.maxThreads ?? os.availableParallelism() - 1);
  }

  /** How many measurements may run at once now. */
  limit(): number {
    return this.options.busy() ? 1 : this.maxThreads;
  }

  analyse(file: string, timeoutMs: number, signal?: AbortSignal): Promise<AnalysedFile> {
    return this.run({ kind: 'analyse', file, timeoutMs }, signal) as Promise<AnalysedFile>;
  }

  loudness(file: string, timeoutMs: number, signal?: AbortSignal): Promise<PlaybackLoudness> {
    return this.run({ kind: 'loudness', file, timeoutMs }, signal) as Promise<PlaybackLoudness>;
  }

  /** Ends the idle threads; busy ones end when their measurement does (a stopping job aborts it). */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(this.idle.splice(0).map((thread) => this.end(thread)));
  }

  private async run(request: Omit<MeasureRequest, 'ffmpegPath' | 'priority'>, signal?: AbortSignal): Promise<unknown> {
    await this.slot(signal);
    try {
      const full: MeasureRequest = { ...request, ffmpegPath: await this.options.ffmpegPath(), priority: ANALYSIS_PRIORITY };
      signal?.throwIfAborted();
      if (this.closed) throw new AnalysisPoolClosedError();
      const thread = this.idle.pop() ?? this.start();
      clearTimeout(thread.idleTimer);
      try {
        const result = await this.ask(thread, full, signal);
        this.release(thread);
        return result;
      } catch (error) {
        // A cancelled measurement leaves its thread usable; a crashed thread is gone.
        if (error instanceof AnalysisCancelledError) this.release(thread);
        else void this.end(thread);
        throw error;
      }
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Waits until fewer than `limit()` measurements run. */
  private async slot(signal?: AbortSignal): Promise<void> {
    while (this.running >= this.limit() && !this.closed) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake);
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve();
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
        // Requests stopped: more may run now. Checked again after a while (timers are cheap; nothing else says so).
        if (this.running < this.maxThreads) setTimeout(wake, 1000).unref();
      });
    }
    signal?.throwIfAborted();
    if (this.closed) throw new AnalysisPoolClosedError();
    this.running += 1;
  }

  private ask(thread: Thread, request: MeasureRequest, signal?: AbortSignal): Promise<unknown> {
    const id = this.nextId++;
    const { worker } = thread;
    return new Promise((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.id !== id) return;
        done();
        if ('result' in message) resolve(message.result);
        else reject(message.cancelled ? new AnalysisCancelledError(message.error) : new Error(message.error));
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const onExit = (code: number) => {
        done();
        reject(this.closed ? new AnalysisPoolClosedError() : new Error(`The analysis thread stopped (exit code ${code})`));
      };
      const onAbort = () => worker.postMessage({ cancel: id } satisfies ToWorker);
      const done = () => {
        worker.unref();
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      worker.ref(); // a measurement in hand keeps the process alive, an idle thread does not
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, request } satisfies ToWorker);
    });
  }

  private release(thread: Thread): void {
    if (this.closed) {
      void this.end(thread);
      return;
    }
    thread.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      void this.end(thread);
    }, this.options.idleMs ?? 30_000);
    thread.idleTimer.unref();
    this.idle.push(thread);
  }

  private start(): Thread {
    const worker = startWorker();
    // The thread never keeps the process alive: a stopping process ends it.
    worker.unref();
    // A crash is reported to the measurement in hand (ask); none in hand, nobody else listens.
    worker.on('error', () => undefined);
    const thread: Thread = { worker };
    this.threads.add(thread);
    worker.once('exit', () => this.threads.delete(thread));
    return thread;
  }

  private async end(thread: Thread): Promise<void> {
    clearTimeout(thread.idleTimer);
    this.threads.delete(thread);
    await thread.worker.terminate();
  }
}

/**
 * The built server runs analysis.worker.js; from the sources (tests, benches, `npm run dev`)
 * the thread loads analysis.worker.ts through tsx, as its parent was.
 */
function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const url = new URL(fromSources ? './analysis.worker.ts' : './analysis.worker.js', import.meta.url);
  if (!fromSources) return new Worker(url);
  // tsx's ESM entry (its CommonJS one registers its hooks from the wrong folder in an eval'd thread).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/u, '.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}))`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=source'] });
}
