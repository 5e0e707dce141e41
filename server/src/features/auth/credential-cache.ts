import { randomBytes } from 'node:crypto';
import type { Logger } from '../../platform/logger.js';
import type { UserRow } from './auth.repository.js';
import type { VerifiedSession } from './session-tokens.js';

/** Migration 0028's triggers NOTIFY a user's id here whenever one of their credentials may have changed. */
export const CREDENTIALS_CHANNEL = 'encore_credentials';
/** The listening connection of every process that caches is named so (pg_stat_activity.application_name). */
export const CACHE_CONNECTION_PREFIX = 'encore-credentials:';
/** How long a revocation waits for every other process to say it has forgotten; then their listeners are cut. */
const SETTLE_TIMEOUT_MS = 3_000;
/** Accounts remembered at once (the oldest go first); each with at most this many session tokens. */
const MAX_ACCOUNTS = 5_000;
const MAX_TOKENS_PER_ACCOUNT = 32;

/** The other processes' listening connections, and how to reach them (see CredentialCacheRepository). */
export interface CachePeers {
  /** The caching processes listening now (by the id in their connection's name) and their backends' pids. */
  list(): Promise<{ id: string; pid: number }[]>;
  notify(payload: string): Promise<void>;
  /** Ends a peer's listening connection: that process stops trusting its cache until it listens again. */
  cut(pid: number): Promise<void>;
}

export interface CredentialCacheDeps {
  /** LISTEN on CREDENTIALS_CHANNEL under a connection name, hearing when the connection is lost and back. */
  listen(onMessage: (payload: string) => void, options: { applicationName: string; onState: (listening: boolean) => void }): Promise<() => Promise<void>>;
  /** Undefined on the embedded database: one process, whose notifications arrive with the write's own answer. */
  peers: CachePeers | undefined;
  logger: Pick<Logger, 'warn'>;
}

interface AccountEntry {
  account: UserRow;
  /** The user's app passwords, decrypted (the process can decrypt them at any time anyway). */
  appPasswords?: readonly { id: number; password: string }[];
  keyHashes: Set<string>;
  tokens: Set<string>;
}

/**
 * Credentials this process has verified, so that a call carrying them again costs a lookup: no
 * hash, no decryption, no query. Correct across processes (several `serve` on one PostgreSQL):
 *
 * - Every change that could end a credential is announced by a trigger (migration 0028) in the
 *   writer's transaction; every caching process LISTENs and forgets that user's entries.
 * - A fill remembers the generation it started under and is dropped if anything was forgotten
 *   meanwhile, so a read from before a revocation cannot be cached after the revocation's event.
 * - Nothing is cached while the listening connection is down (events could be missed then), and
 *   everything is forgotten when it drops.
 * - The call that revokes does not answer until every other caching process has processed the
 *   revocation: `settle()` lists the caching processes (their listening connections, named, in
 *   pg_stat_activity), NOTIFYs a marker after the revocation's commit and waits for each to
 *   acknowledge it. PostgreSQL delivers notifications in commit order, so a process that
 *   acknowledges the marker has already forgotten the revoked entries. A process that does not
 *   answer within SETTLE_TIMEOUT_MS has its listening connection ended, which empties and
 *   disables its cache. So when the revoke call returns, no process will accept the credential.
 *   A process that starts listening after the list was read could only cache what it reads after
 *   the revocation's commit, which already sees it.
 *
 * The cheaper "the revoker waits for its own notification" would leave a window in which another
 * process has not yet read the same notification off its socket; a version counter read per call
 * would be a round trip per call. The acknowledgement costs a round trip per revocation instead.
 */
export class CredentialCache {
  private readonly accounts = new Map<number, AccountEntry>();
  private readonly byName = new Map<string, number>();
  private readonly byKeyHash = new Map<string, { userId: number; keyId: number }>();
  private readonly byToken = new Map<string, { userId: number; session: VerifiedSession }>();
  private readonly waiting = new Map<string, { pending: Set<string>; done: () => void }>();
  private readonly id = randomBytes(9).toString('base64url');
  private generation = 0;
  private listening = false;
  private starting: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(private readonly deps: CredentialCacheDeps) {}

  /** A mark to hand back to a fill: the fill is kept only if nothing was forgotten since. */
  mark(): number {
    this.start();
    return this.listening ? this.generation : -1;
  }

  account(userId: number): UserRow | undefined {
    return this.accounts.get(userId)?.account;
  }

  byUserName(userName: string): { account: UserRow; appPasswords: readonly { id: number; password: string }[] } | undefined {
    const userId = this.byName.get(userName.toLowerCase());
    const entry = userId === undefined ? undefined : this.accounts.get(userId);
    return entry?.appPasswords ? { account: entry.account, appPasswords: entry.appPasswords } : undefined;
  }

  apiKey(hash: string): { account: UserRow; keyId: number } | undefined {
    const found = this.byKeyHash.get(hash);
    const account = found && this.accounts.get(found.userId)?.account;
    return found && account ? { account, keyId: found.keyId } : undefined;
  }

  session(token: string): { account: UserRow; session: VerifiedSession } | undefined {
    const found = this.byToken.get(token);
    const account = found && this.accounts.get(found.userId)?.account;
    return found && account ? { account, session: found.session } : undefined;
  }

  rememberAppPasswords(mark: number, account: UserRow, appPasswords: readonly { id: number; password: string }[]): void {
    const entry = this.entry(mark, account);
    if (!entry) return;
    entry.appPasswords = appPasswords;
    this.byName.set(account.userName.toLowerCase(), account.id);
  }

  rememberApiKey(mark: number, account: UserRow, hash: string, keyId: number): void {
    const entry = this.entry(mark, account);
    if (!entry) return;
    entry.keyHashes.add(hash);
    this.byKeyHash.set(hash, { userId: account.id, keyId });
  }

  rememberSession(mark: number, account: UserRow, token: string, session: VerifiedSession): void {
    const entry = this.entry(mark, account);
    if (!entry) return;
    if (entry.tokens.size >= MAX_TOKENS_PER_ACCOUNT) {
      const oldest = entry.tokens.values().next().value as string;
      entry.tokens.delete(oldest);
      this.byToken.delete(oldest);
    }
    entry.tokens.add(token);
    this.byToken.set(token, { userId: account.id, session });
  }

  /** Drops a session token whose time is up (the rest of its account stays). */
  dropSession(token: string): void {
    const found = this.byToken.get(token);
    if (!found) return;
    this.byToken.delete(token);
    this.accounts.get(found.userId)?.tokens.delete(token);
  }

  /** Forgets everything of the user, in this process at once. */
  forget(userId: number): void {
    this.generation += 1;
    this.drop(userId);
  }

  private drop(userId: number): void {
    const entry = this.accounts.get(userId);
    if (!entry) return;
    this.accounts.delete(userId);
    if (this.byName.get(entry.account.userName.toLowerCase()) === userId) this.byName.delete(entry.account.userName.toLowerCase());
    for (const hash of entry.keyHashes) this.byKeyHash.delete(hash);
    for (const token of entry.tokens) this.byToken.delete(token);
  }

  forgetAll(): void {
    this.generation += 1;
    this.accounts.clear();
    this.byName.clear();
    this.byKeyHash.clear();
    this.byToken.clear();
  }

  /**
   * Forgets the user here, then returns once every other caching process has processed every
   * change committed before this call (see the class comment). Call after the write commits.
   */
  async settle(userId: number): Promise<void> {
    this.forget(userId);
    const peers = this.deps.peers;
    if (!peers) return;
    const listed = await peers.list();
    if (listed.length === 0) return;
    const nonce = randomBytes(9).toString('base64url');
    const pending = new Set(listed.map((peer) => peer.id));
    const answered = new Promise<void>((resolve) => this.waiting.set(nonce, { pending, done: resolve }));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), SETTLE_TIMEOUT_MS);
    });
    try {
      await peers.notify(`sync:${this.id}:${nonce}`);
      if ((await Promise.race([answered, late])) === 'late') {
        for (const peer of listed.filter((candidate) => pending.has(candidate.id))) {
          this.deps.logger.warn({ peer: peer.id }, 'a process did not confirm a revocation in time; its credential cache is cut off');
          await peers.cut(peer.pid);
        }
      }
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.starting?.catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
    this.listening = false;
    this.forgetAll();
  }

  private entry(mark: number, account: UserRow): AccountEntry | undefined {
    if (mark < 0 || mark !== this.generation || !this.listening) return undefined;
    let entry = this.accounts.get(account.id);
    if (!entry) {
      // The oldest makes room; nothing changed about it, so fills under way stay good.
      if (this.accounts.size >= MAX_ACCOUNTS) this.drop(this.accounts.keys().next().value as number);
      entry = { account, keyHashes: new Set(), tokens: new Set() };
      this.accounts.set(account.id, entry);
    }
    entry.account = account;
    return entry;
  }

  /** Listens from the first use on (a `worker` process never authenticates, so it never listens). */
  private start(): void {
    if (this.starting || this.closed) return;
    this.starting = this.deps
      .listen((payload) => this.onMessage(payload), {
        applicationName: `${CACHE_CONNECTION_PREFIX}${this.id}`,
        onState: (listening) => {
          this.forgetAll();
          this.listening = listening && !this.closed;
        },
      })
      .then(
        (unlisten) => {
          this.unlisten = unlisten;
        },
        (error: unknown) => {
          this.deps.logger.warn({ err: error }, 'could not listen for revoked credentials; they are checked on every call');
          this.starting = undefined;
        },
      );
  }

  private onMessage(payload: string): void {
    if (/^\d+$/.test(payload)) {
      this.forget(Number(payload));
      return;
    }
    const [kind, origin, nonce, peer] = payload.split(':');
    if (kind === 'sync' && origin !== undefined && nonce !== undefined) {
      if (origin === this.id) this.acknowledged(nonce, this.id);
      else
        void this.deps.peers
          ?.notify(`ack:${origin}:${nonce}:${this.id}`)
          .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not confirm a revocation'));
    } else if (kind === 'ack' && origin === this.id && nonce !== undefined && peer !== undefined) {
      this.acknowledged(nonce, peer);
    }
  }

  private acknowledged(nonce: string, peer: string): void {
    const waiting = this.waiting.get(nonce);
    if (!waiting) return;
    waiting.pending.delete(peer);
    if (waiting.pending.size === 0) waiting.done();
  }
}
