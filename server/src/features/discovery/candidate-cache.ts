import type { Candidate } from './discovery.repository.js';

/** A process forgets the candidates after this long without a generation (their memory back). */
export const CANDIDATES_IDLE_MS = 10 * 60_000;

interface Entry<D> {
  version: number;
  candidates: Candidate[];
  derived: D;
}

/**
 * The analysed songs a generation ranks, kept between generations while the catalogue's version
 * (bumped by the database on every change to songs or analyses, in any process) stays the same:
 * reading 10,000 songs with their features is most of a generation's time.
 */
export class CandidateCache<D> {
  private entry: Entry<D> | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: { version(): Promise<number>; load(): Promise<Candidate[]> },
    private readonly derive: (candidates: Candidate[]) => D,
    private readonly idleMs = CANDIDATES_IDLE_MS,
  ) {}

  async get(): Promise<{ candidates: Candidate[]; derived: D }> {
    // The version is read first: a change made while loading shows as a newer version next time.
    const version = await this.source.version();
    let entry = this.entry;
    if (!entry || entry.version !== version) {
      const candidates = await this.source.load();
      entry = { version, candidates, derived: this.derive(candidates) };
      this.entry = entry;
    }
    clearTimeout(this.idle);
    this.idle = setTimeout(() => (this.entry = undefined), this.idleMs).unref();
    return entry;
  }
}
