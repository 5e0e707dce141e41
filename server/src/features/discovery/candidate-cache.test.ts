import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Candidate } from './discovery.repository.js';
import { CandidateCache } from './candidate-cache.js';

const song = (id: number) => ({ id, displayName: `Song ${id}` }) as Candidate;

describe('the candidate cache', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the songs again only when the catalogue version moved, and derives once per read', async () => {
    let version = 1;
    let library = [song(1), song(2)];
    const load = vi.fn(async () => library);
    const derive = vi.fn((candidates: Candidate[]) => candidates.length);
    const cache = new CandidateCache({ version: async () => version, load }, derive);

    expect((await cache.get()).derived).toBe(2);
    expect((await cache.get()).candidates.map((c) => c.id)).toEqual([1, 2]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(derive).toHaveBeenCalledTimes(1);

    library = [song(1), song(2), song(3)];
    version = 2;
    expect((await cache.get()).candidates.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets the songs after a while without a generation', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => [song(1)]);
    const cache = new CandidateCache({ version: async () => 7, load }, () => null, 1000);
    await cache.get();
    await vi.advanceTimersByTimeAsync(999);
    await cache.get();
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1001);
    await cache.get();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
