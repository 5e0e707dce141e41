import { UnauthorizedError } from '../../platform/errors/app-errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SessionTokens, SessionWindow } from './session-tokens.js';

/** A trigger on users (migration 0013) NOTIFYs the user's id here whenever a token version changes. */
export const SESSIONS_CHANNEL = 'encore_sessions';

/** Node's timers hold at most this many milliseconds; a later expiry is left to the re-checks. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface EventSessionsDeps {
  tokens: SessionTokens;
  /** Whether the session still stands: its user exists, with this token version, and it has not expired. */
  isLive(session: SessionWindow): Promise<boolean>;
  /** LISTEN on a channel (any process's NOTIFY); returns the unsubscribe. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** How often an open stream's session is checked again, beside the revocation events. */
  recheckMs: number;
  logger: Logger;
}

/**
 * The sessions behind long-lived event streams. A ticket carries its session's token version
 * and expiry; an open stream ends as soon as its session does: at once when a password change
 * or reset (from any process) bumps the token version, at the session's expiry, and at the
 * latest `recheckMs` after a revocation whose event was lost.
 */
export class EventSessions {
  private readonly watchers = new Map<number, Set<() => void>>();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: EventSessionsDeps) {}

  issueTicket(session: SessionWindow): Promise<string> {
    return this.deps.tokens.issueTicket(session);
  }

  /** The live session a ticket was issued from; 401 for a bad or expired ticket or an ended session. */
  async open(ticket: string): Promise<SessionWindow> {
    const session = await this.deps.tokens.verifyTicket(ticket);
    if (!(await this.deps.isLive(session))) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return session;
  }

  /** Calls `onEnd` once when the session ends; returns the unsubscribe. */
  async watch(session: SessionWindow, onEnd: () => void): Promise<() => void> {
    await this.startListening();
    let stopped = false;
    const check = () => {
      if (stopped) return;
      this.deps.isLive(session).then(
        (live) => {
          if (live || stopped) return;
          stop();
          onEnd();
        },
        (error: unknown) => this.deps.logger.warn({ err: error }, 'could not check a session'),
      );
    };
    const recheck = setInterval(check, this.deps.recheckMs);
    const untilExpiry = session.expiresAt.getTime() - Date.now();
    const expiry = untilExpiry < MAX_TIMER_MS ? setTimeout(check, Math.max(0, untilExpiry) + 1) : undefined;
    const set = this.watchers.get(session.userId) ?? new Set();
    set.add(check);
    this.watchers.set(session.userId, set);
    const stop = () => {
      stopped = true;
      clearInterval(recheck);
      clearTimeout(expiry);
      set.delete(check);
      if (set.size === 0 && this.watchers.get(session.userId) === set) this.watchers.delete(session.userId);
    };
    // A revocation between the ticket's check and the LISTEN has no event of its own.
    check();
    return stop;
  }

  async close(): Promise<void> {
    await this.listening?.catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
    this.watchers.clear();
  }

  private startListening(): Promise<void> {
    this.listening ??= this.deps
      .listen(SESSIONS_CHANNEL, (payload) => this.onRevoked(payload))
      .then(
        (unlisten) => {
          this.unlisten = unlisten;
        },
        (error: unknown) => {
          // The next stream tries again.
          this.listening = undefined;
          throw error;
        },
      );
    return this.listening;
  }

  private onRevoked(payload: string): void {
    for (const check of [...(this.watchers.get(Number(payload)) ?? [])]) check();
  }
}
