/**
 * Whether this process is serving listeners now: background work (the sonic analysis) takes
 * one core while requests come, and what the machine has when they stop. A request counts
 * from its start to its answer, and for `quietMs` after: a client browsing makes its calls
 * seconds apart.
 */
export class RequestActivity {
  private inFlight = 0;
  private lastSeen = Number.NEGATIVE_INFINITY;

  constructor(private readonly quietMs = 10_000) {}

  started(): void {
    this.inFlight += 1;
    this.lastSeen = performance.now();
  }

  ended(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastSeen = performance.now();
  }

  /** Requests are being answered, or were within `quietMs`. */
  busy(): boolean {
    return this.inFlight > 0 || performance.now() - this.lastSeen < this.quietMs;
  }
}
