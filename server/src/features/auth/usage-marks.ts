import type { Logger } from '../../platform/logger.js';

/** What carries a "last used" time: an API key, an app password, or an account's "last seen". */
export type UsageKind = 'api-key' | 'app-password' | 'user';

export interface UsageMarksDeps {
  /** Writes "used now" for these ids (one statement per kind), where the stored time is older than the resolution. */
  write(kind: UsageKind, ids: readonly number[]): Promise<void>;
  /** How stale each kind's time may get before it is written again. */
  resolutionMs: Record<UsageKind, number>;
  logger: Pick<Logger, 'warn'>;
}

/** Ids whose last write is remembered; past it the memory starts again (a few more writes, no harm). */
const REMEMBERED = 50_000;

/**
 * "Last used" times of credentials verified from the cache: a call only notes the use in
 * memory; a credential's time is written at most once per resolution, all due ones together in
 * one statement per kind, after the call has been answered.
 */
export class UsageMarks {
  private readonly written = new Map<string, number>();
  private readonly pending = new Map<UsageKind, Set<number>>();
  private scheduled: NodeJS.Immediate | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: UsageMarksDeps) {}

  /** The time was written (or read as fresh) at `at`: no write for it until the resolution has passed. */
  wrote(kind: UsageKind, id: number, at = Date.now()): void {
    if (this.written.size >= REMEMBERED) this.written.clear();
    this.written.set(`${kind}:${id}`, at);
  }

  /** A use now; written later, with the others due, when the last write is older than the resolution. */
  note(kind: UsageKind, id: number, now = Date.now()): void {
    const last = this.written.get(`${kind}:${id}`);
    if (last !== undefined && now - last < this.deps.resolutionMs[kind]) return;
    this.wrote(kind, id, now);
    const ids = this.pending.get(kind) ?? new Set<number>();
    ids.add(id);
    this.pending.set(kind, ids);
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      void this.flush();
    });
  }

  /** Writes what is due now (and waits for a write under way). */
  flush(): Promise<void> {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [kind, ids] of batches) {
        await this.deps
          .write(kind, [...ids])
          .catch((error: unknown) => this.deps.logger.warn({ err: error, kind }, 'could not record when credentials were last used'));
      }
    });
    return this.flushing;
  }
}
