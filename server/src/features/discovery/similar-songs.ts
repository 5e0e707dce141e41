import type { DiscoveryRepository } from './discovery.repository.js';
import type { SimilarSongs } from './discovery.port.js';
import { vectorDistance } from './ranking/rank.js';

interface Vectors {
  version: number;
  bySong: Map<number, number[]>;
}

/**
 * Nearest songs by the analysis' similarity vectors (the distance "More like this" ranks by). The
 * vectors are kept while the catalogue's version stays the same: a Subsonic app asks for similar
 * songs at every track change.
 */
export class SimilarSongsFinder implements SimilarSongs {
  private vectors: Vectors | undefined;

  constructor(private readonly repository: Pick<DiscoveryRepository, 'analysedSongs' | 'catalogVersion'>) {}

  similarTo(songId: number, count: number): Promise<number[]> {
    return this.similarToAny([songId], count);
  }

  async similarToAny(songIds: readonly number[], count: number): Promise<number[]> {
    if (count <= 0 || songIds.length === 0) return [];
    const { bySong } = await this.load();
    const seeds = [...new Set(songIds)].flatMap((id) => {
      const vector = bySong.get(id);
      return vector ? [vector] : [];
    });
    if (seeds.length === 0) return [];
    const excluded = new Set(songIds);
    const ranked: { id: number; distance: number }[] = [];
    for (const [id, vector] of bySong) {
      if (excluded.has(id)) continue;
      let distance = Infinity;
      for (const seed of seeds) distance = Math.min(distance, vectorDistance(seed, vector));
      ranked.push({ id, distance });
    }
    ranked.sort((a, b) => a.distance - b.distance || a.id - b.id);
    return ranked.slice(0, count).map((entry) => entry.id);
  }

  private async load(): Promise<Vectors> {
    // The version is read first: a change made while loading shows as a newer version next time.
    const version = await this.repository.catalogVersion();
    if (this.vectors?.version === version) return this.vectors;
    const analysed = await this.repository.analysedSongs();
    this.vectors = { version, bySong: new Map(analysed.map((song) => [song.songId, song.vector])) };
    return this.vectors;
  }
}
