import { describe, expect, it } from 'vitest';
import type { SongFeatures } from '@encore/common/analysis.contract';
import type { AnalysedSong } from './discovery.repository.js';
import { SimilarSongsFinder } from './similar-songs.js';

/** The repository's two reads over songs kept in memory, counting the loads. */
function library(vectors: Record<number, number[]>) {
  const state = { version: 1, loads: 0, vectors };
  return {
    state,
    repository: {
      catalogVersion: async () => state.version,
      analysedSongs: async (): Promise<AnalysedSong[]> => {
        state.loads += 1;
        return Object.entries(state.vectors).map(([id, vector]) => ({ songId: Number(id), vector, features: {} as SongFeatures }));
      },
    },
  };
}

describe('similar songs by analysis vectors', () => {
  it('ranks nearest first, leaves the seed out, and answers nothing for an unanalysed seed', async () => {
    const { repository } = library({ 1: [0, 0], 2: [0.1, 0], 3: [1, 1], 4: [0.5, 0.5] });
    const finder = new SimilarSongsFinder(repository);
    expect(await finder.similarTo(1, 10)).toEqual([2, 4, 3]);
    expect(await finder.similarTo(1, 1)).toEqual([2]);
    expect(await finder.similarTo(1, 0)).toEqual([]);
    expect(await finder.similarTo(99, 10)).toEqual([]);
  });

  it('ranks each song by its nearest seed when there are several', async () => {
    const { repository } = library({ 1: [0, 0], 2: [0.2, 0], 3: [1, 1], 4: [0.9, 1], 5: [0.5, 0.5] });
    expect(await new SimilarSongsFinder(repository).similarToAny([1, 3, 42], 10)).toEqual([4, 2, 5]);
  });

  it('reads the vectors again only when the catalogue changed', async () => {
    const { repository, state } = library({ 1: [0, 0], 2: [1, 1] });
    const finder = new SimilarSongsFinder(repository);
    await finder.similarTo(1, 5);
    await finder.similarTo(2, 5);
    expect(state.loads).toBe(1);
    state.vectors = { ...state.vectors, 3: [0.1, 0.1] };
    state.version += 1;
    expect(await finder.similarTo(1, 5)).toEqual([3, 2]);
    expect(state.loads).toBe(2);
  });
});
