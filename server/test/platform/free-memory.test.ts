import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadMallocTrim, returnFreeMemoryEvery, START_UP_TRIM_MS } from '../../src/platform/memory/free-memory.js';

const MiB = 1024 * 1024;
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() });

describe('returning freed memory to the system', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives back the pages glibc keeps between live allocations, which freeing alone does not', async () => {
    const trim = await loadMallocTrim();
    expect(trim, 'this Linux has glibc: malloc_trim must load').toBeDefined();
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // 2,048 blocks of 64 KiB (128 MiB, each a malloc below glibc's mmap threshold), touched so
    // they are resident; every eighth stays alive, so the freed ones are holes between live ones.
    let blocks: Buffer[] = Array.from({ length: 2048 }, () => Buffer.allocUnsafeSlow(64 * 1024).fill(1));
    const kept = blocks.filter((_, i) => i % 8 === 0);
    blocks = [];
    for (let i = 0; i < 3; i += 1) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const freedButResident = rss();
    expect(trim?.(0)).toBe(1);
    const given = freedButResident - rss();
    expect(given, `gave back ${(given / MiB).toFixed(0)} MiB`).toBeGreaterThan(48 * MiB);
    expect(kept.every((block) => block[0] === 1 && block[block.length - 1] === 1)).toBe(true);
  });

  it('is absent, not an error, where the library or the function does not exist', async () => {
    expect(await loadMallocTrim('libno-such-library.so.1')).toBeUndefined();
    const log = quietLog();
    const stop = await returnFreeMemoryEvery(30, log, async () => undefined);
    expect(log.debug).toHaveBeenCalledWith({}, 'freed memory is left to the allocator (no glibc malloc_trim here)');
    stop();
  });

  it('runs once start-up is over, then every MEMORY_TRIM_SECONDS until stopped, and never with 0', async () => {
    vi.useFakeTimers();
    const trim = vi.fn(() => 1);
    const log = quietLog();
    const stop = await returnFreeMemoryEvery(30, log, async () => trim);
    await vi.advanceTimersByTimeAsync(START_UP_TRIM_MS - 1);
    expect(trim).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(trim).toHaveBeenCalledWith(0);
    await vi.advanceTimersByTimeAsync(30_000 - START_UP_TRIM_MS - 1);
    expect(trim).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(trim).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(trim).toHaveBeenCalledTimes(4);
    expect(log.debug).toHaveBeenCalledWith(expect.objectContaining({ freedMiB: expect.any(Number) }), 'returned freed memory to the system');
    stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(trim).toHaveBeenCalledTimes(4);

    // A period shorter than the start-up's wait: just the period.
    const often = vi.fn(() => 1);
    const stopOften = await returnFreeMemoryEvery(2, log, async () => often);
    await vi.advanceTimersByTimeAsync(START_UP_TRIM_MS);
    expect(often).toHaveBeenCalledTimes(2);
    stopOften();

    // Stopped before the start-up's trim: none.
    const early = vi.fn(() => 1);
    (await returnFreeMemoryEvery(30, log, async () => early))();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(early).not.toHaveBeenCalled();

    const never = vi.fn(() => 1);
    await returnFreeMemoryEvery(0, log, async () => never);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(never).not.toHaveBeenCalled();
  });

  it('reads MEMORY_TRIM_SECONDS: 30 by default, 0 to turn it off, and refuses anything else', () => {
    expect(loadConfig({}).memoryTrimSeconds).toBe(30);
    expect(loadConfig({ MEMORY_TRIM_SECONDS: '0' }).memoryTrimSeconds).toBe(0);
    expect(loadConfig({ MEMORY_TRIM_SECONDS: '300' }).memoryTrimSeconds).toBe(300);
    for (const value of ['-1', '1.5', 'often', '3601']) {
      expect(() => loadConfig({ MEMORY_TRIM_SECONDS: value })).toThrow(/MEMORY_TRIM_SECONDS/);
    }
  });
});
