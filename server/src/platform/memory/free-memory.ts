import type { Logger } from '../logger.js';

/** glibc's `malloc_trim(pad)`: 1 when it gave memory back to the system, else 0. */
export type MallocTrim = (pad: number) => number;

/**
 * glibc's `malloc_trim`, through koffi (an FFI library shipped with prebuilt binaries), or
 * undefined where there is none: not Linux, musl (no `libc.so.6` or no `malloc_trim` in it),
 * or no koffi build for this machine.
 */
export async function loadMallocTrim(library = 'libc.so.6'): Promise<MallocTrim | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const { default: koffi } = await import('koffi');
    const trim = koffi.load(library).func('int malloc_trim(size_t pad)');
    return (pad) => Number(trim(pad));
  } catch {
    return undefined;
  }
}

/**
 * Gives the allocator's free pages back to the system every `seconds` (0: never), and once
 * START_UP_TRIM_MS after the start. V8 compiles the embedded PostgreSQL's busiest functions anew with its optimising compiler as they warm
 * up (minutes into a run, and again when new queries get busy); the compiler's working memory
 * is freed, but glibc keeps freed pages that sit between live ones, so about 20 MiB stayed
 * resident for good; libvips' threads leave more after a run of uploads (60 MiB after 220
 * covers). `malloc_trim(0)` returns them, in about a millisecond. Returns the stop function.
 */
export async function returnFreeMemoryEvery(seconds: number, log: Logger, load: () => Promise<MallocTrim | undefined> = loadMallocTrim): Promise<() => void> {
  if (seconds <= 0) return () => {};
  const release = await load();
  if (!release) {
    log.debug({}, 'freed memory is left to the allocator (no glibc malloc_trim here)');
    return () => {};
  }
  const trim = () => {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    if (release(0) === 1) {
      const freedMiB = Math.round((before - process.memoryUsage.rss()) / 1024 / 1024);
      log.debug({ freedMiB, ms: Math.round(performance.now() - started) }, 'returned freed memory to the system');
    }
  };
  // Start-up (migrations, compiling the modules, the first queries) frees its working memory
  // within seconds: given back then, not a whole period later.
  const first = seconds * 1000 > START_UP_TRIM_MS ? setTimeout(trim, START_UP_TRIM_MS) : undefined;
  first?.unref();
  const timer = setInterval(trim, seconds * 1000);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** When the first trim runs after the start (if the period is longer). */
export const START_UP_TRIM_MS = 5_000;
