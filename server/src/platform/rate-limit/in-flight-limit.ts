import { TooManyRequestsError } from '../errors/app-errors.js';

/**
 * At most `max` of something at once per owner, in this process: uploads one user holds open
 * (each holds a connection, a file and a spool on disk while it arrives). Past the cap the
 * answer is 429 with a Retry-After of `retryAfterSeconds`.
 */
export class InFlightLimit {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly message: string,
    private readonly retryAfterSeconds = 5,
  ) {}

  /** Counts one in for `owner`, or throws TooManyRequestsError; the answer lets it out again (once). */
  enter(owner: string): () => void {
    const count = this.running.get(owner) ?? 0;
    if (count >= this.max) throw new TooManyRequestsError(this.message, this.retryAfterSeconds);
    this.running.set(owner, count + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const rest = (this.running.get(owner) ?? 1) - 1;
      if (rest > 0) this.running.set(owner, rest);
      else this.running.delete(owner);
    };
  }

  /** How many `owner` has in flight now. */
  count(owner: string): number {
    return this.running.get(owner) ?? 0;
  }
}
