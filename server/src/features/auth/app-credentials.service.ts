import { ConflictError, NotFoundError, UnauthorizedError } from '../../platform/errors/app-errors.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import { AppPasswordCipher, hashApiKey, newApiKey, newAppPassword, normaliseAppPassword, sameSecret, subsonicToken } from './app-credential-secrets.js';
import type { AppCredentialKind, AppCredentialSummary, AppCredentialsRepository } from './app-credentials.repository.js';
import { ClientCredentialsError, type ClientAuthentication, type ClientCredentials } from './auth.port.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { ACCOUNT_DISABLED_MESSAGE, type AuthenticatedUser, type AuthLimits } from './auth.service.js';
import type { CredentialCache } from './credential-cache.js';
import type { PasswordHasher } from './password-hasher.js';
import type { UsageMarks } from './usage-marks.js';

/** How many of each kind one user may hold: a token check decrypts every app password of the user. */
export const APP_CREDENTIALS_MAX = 25;

/**
 * An app's identity is proven again by every request, and revocation is checked each time; what
 * is built from it (an events ticket, say) should not outlive a day.
 */
const CLIENT_IDENTITY_LIFETIME_MS = 24 * 3600_000;

export const WRONG_CREDENTIALS = 'Wrong username or password.';
export const ACCOUNT_PASSWORD_REFUSED = 'Use an app password: create one on your profile page. Your account password is not accepted by apps.';
export const INVALID_API_KEY = 'Invalid API key';

export interface AppCredentialsDeps {
  repository: AppCredentialsRepository;
  users: AuthRepository;
  hasher: PasswordHasher;
  rateLimiter: RateLimiter;
  limits: AuthLimits;
  /** The server key app passwords are encrypted under (derived again with HKDF). */
  serverKey: Uint8Array;
  /** Credentials verified before: a call that carries them again costs a lookup (absent: every call is checked in full). */
  cache?: CredentialCache;
  /** "Last used" of credentials verified from the cache, written at most once a minute each. */
  usage?: UsageMarks;
}

/** Suspicious addresses and user names remembered at once (past it the memory starts again). */
const MAX_SUSPECTS = 10_000;

/**
 * API keys and app passwords: what apps (Subsonic clients) sign in with. The account password
 * is never one of them. Failed attempts count against the client's address and the user name
 * (fixed windows, as the web sign-in); a success clears the user name's count.
 */
export class AppCredentialsService implements ClientAuthentication {
  private readonly cipher: AppPasswordCipher;
  private readonly rules: Record<'ip' | 'user', RateLimitRule>;
  /**
   * Failed attempts in this process per address and user name, within their window. From half
   * the limit on, their calls take the full path even with cached credentials, so the limits hold
   * where they may bite; below it a cached success (not a guess) needs no check. Guesses always
   * take the full path and count in the database, across processes.
   */
  private readonly suspects = new Map<string, { count: number; until: number }>();

  constructor(private readonly deps: AppCredentialsDeps) {
    this.cipher = new AppPasswordCipher(deps.serverKey);
    const windowSeconds = deps.limits.windowMinutes * 60;
    const message = `Too many sign-in attempts. Please wait ${deps.limits.windowMinutes} minutes and try again.`;
    this.rules = {
      ip: { name: 'app-signin-ip', limit: deps.limits.signInPerIp, windowSeconds, message },
      user: { name: 'app-signin-user', limit: deps.limits.signInPerUser, windowSeconds, message },
    };
  }

  /** A new API key; the key is in this answer only. */
  async createApiKey(userId: number, name: string): Promise<AppCredentialSummary & { key: string }> {
    const { key, hash } = newApiKey();
    const created = await this.insert('api-key', userId, name, hash);
    return { ...created, key };
  }

  /** A new app password; the password is in this answer only. */
  async createAppPassword(userId: number, name: string): Promise<AppCredentialSummary & { password: string }> {
    const password = newAppPassword();
    const created = await this.insert('app-password', userId, name, this.cipher.encrypt(password, userId));
    return { ...created, password };
  }

  list(kind: AppCredentialKind, userId: number): Promise<AppCredentialSummary[]> {
    return this.deps.repository.list(kind, userId);
  }

  /** Revokes at once; another user's id is not found, as one that never existed. */
  async revoke(kind: AppCredentialKind, userId: number, id: number): Promise<void> {
    const deleted = await this.deps.repository.delete(kind, userId, id);
    // Answered once no process accepts it any more (see CredentialCache.settle).
    if (deleted) await this.deps.cache?.settle(userId);
    else throw new NotFoundError(kind === 'api-key' ? 'API key not found.' : 'App password not found.');
  }

  async authenticate(credentials: ClientCredentials, clientAddress: string): Promise<AuthenticatedUser> {
    const cached = this.fromCache(credentials, clientAddress);
    if (cached) return cached;
    const { rateLimiter } = this.deps;
    const mark = this.deps.cache?.mark() ?? -1;
    await rateLimiter.assertBelow(this.rules.ip, clientAddress);
    if (credentials.kind === 'apiKey') {
      const user = await this.byApiKey(credentials.key, mark);
      if (!user) {
        await this.failed('ip', clientAddress);
        throw new ClientCredentialsError(44, INVALID_API_KEY);
      }
      if (user.disabledAt) throw new ClientCredentialsError(44, ACCOUNT_DISABLED_MESSAGE);
      return this.identity(user);
    }
    await rateLimiter.assertBelow(this.rules.user, credentials.userName);
    const user = await this.deps.users.findByUserName(credentials.userName);
    const passwords = user ? await this.appPasswordsOf(user) : [];
    const matched = matchAppPassword(passwords, credentials);
    if (user && matched !== undefined) {
      if (user.disabledAt) throw new ClientCredentialsError(40, ACCOUNT_DISABLED_MESSAGE);
      await this.deps.repository.touch('app-password', matched);
      this.deps.usage?.wrote('app-password', matched);
      await rateLimiter.reset(this.rules.user, credentials.userName);
      this.suspects.delete(`user:${credentials.userName.toLowerCase()}`);
      this.deps.cache?.rememberAppPasswords(mark, user, passwords);
      return this.identity(user);
    }
    await this.failed('ip', clientAddress);
    await this.failed('user', credentials.userName);
    if (credentials.kind === 'password' && (await this.isAccountPassword(user, plainPassword(credentials.password)))) {
      throw new ClientCredentialsError(41, ACCOUNT_PASSWORD_REFUSED);
    }
    throw new ClientCredentialsError(40, WRONG_CREDENTIALS);
  }

  private async insert(kind: AppCredentialKind, userId: number, name: string, secret: string): Promise<AppCredentialSummary> {
    const created = await this.deps.repository.insertWithin(kind, { userId, name, secret }, APP_CREDENTIALS_MAX);
    if (created === null) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    if (created === undefined) {
      const what = kind === 'api-key' ? 'API keys' : 'app passwords';
      throw new ConflictError(`You can have at most ${APP_CREDENTIALS_MAX} ${what}. Revoke one you no longer use.`);
    }
    return created;
  }

  /**
   * The user of credentials this process verified before, without a query; undefined sends the
   * call the full way (not cached, wrong, disabled, or an address or user name with failures).
   */
  private fromCache(credentials: ClientCredentials, clientAddress: string): AuthenticatedUser | undefined {
    const { cache, usage } = this.deps;
    if (!cache || this.isSuspect(`ip:${clientAddress}`)) return undefined;
    if (credentials.kind === 'apiKey') {
      const hit = cache.apiKey(hashApiKey(credentials.key));
      if (!hit || hit.account.disabledAt) return undefined;
      usage?.note('api-key', hit.keyId);
      return this.identity(hit.account);
    }
    if (this.isSuspect(`user:${credentials.userName.toLowerCase()}`)) return undefined;
    const hit = cache.byUserName(credentials.userName);
    if (!hit || hit.account.disabledAt) return undefined;
    const matched = matchAppPassword(hit.appPasswords, credentials);
    if (matched === undefined) return undefined;
    usage?.note('app-password', matched);
    return this.identity(hit.account);
  }

  private isSuspect(key: string): boolean {
    const failures = this.suspects.get(key);
    if (failures === undefined) return false;
    if (failures.until <= Date.now()) {
      this.suspects.delete(key);
      return false;
    }
    const rule = key.startsWith('ip:') ? this.rules.ip : this.rules.user;
    return failures.count >= Math.max(1, Math.floor(rule.limit / 2));
  }

  private async failed(rule: 'ip' | 'user', key: string): Promise<void> {
    await this.deps.rateLimiter.increment(this.rules[rule], key);
    if (this.suspects.size >= MAX_SUSPECTS) this.suspects.clear();
    const name = `${rule}:${rule === 'user' ? key.toLowerCase() : key}`;
    const now = Date.now();
    const before = this.suspects.get(name);
    const current = before && before.until > now ? before : { count: 0, until: now + this.rules[rule].windowSeconds * 1000 };
    this.suspects.set(name, { count: current.count + 1, until: current.until });
  }

  private async byApiKey(key: string, mark: number): Promise<UserRow | undefined> {
    const hash = hashApiKey(key);
    const row = await this.deps.repository.findApiKey(hash);
    // The lookup is by an index on the hash; the comparison is repeated in constant time anyway.
    if (!row || !sameSecret(row.keyHash, hash)) return undefined;
    const user = await this.deps.users.findById(row.userId);
    if (user) {
      await this.deps.repository.touch('api-key', row.id);
      this.deps.usage?.wrote('api-key', row.id);
      if (!user.disabledAt) this.deps.cache?.rememberApiKey(mark, user, hash, row.id);
    }
    return user;
  }

  /** The user's app passwords, decrypted (those no longer readable left out). */
  private async appPasswordsOf(user: UserRow): Promise<{ id: number; password: string }[]> {
    const rows = await this.deps.repository.appPasswordsOf(user.id);
    const passwords: { id: number; password: string }[] = [];
    for (const row of rows) {
      const password = this.cipher.decrypt(row.ciphertext, user.id);
      if (password !== undefined) passwords.push({ id: row.id, password });
    }
    return passwords;
  }

  /** Whether the refused password is the account's own (argon2, as slow for an unknown user). */
  private async isAccountPassword(user: UserRow | undefined, password: string): Promise<boolean> {
    const { hasher } = this.deps;
    if (!user?.passwordHash) {
      await hasher.verify(await hasher.dummyHash(), password);
      return false;
    }
    return hasher.verify(user.passwordHash, password);
  }

  private identity(user: UserRow): AuthenticatedUser {
    return {
      id: user.id,
      userName: user.userName,
      email: user.email,
      role: user.role,
      remember: false,
      tokenVersion: user.tokenVersion,
      expiresAt: new Date(Date.now() + CLIENT_IDENTITY_LIFETIME_MS),
    };
  }
}

/**
 * The id of the app password these credentials carry. Every one is compared (no early exit),
 * plain passwords as typed in any case and with or without dashes, tokens against the password
 * with and without its dashes.
 */
function matchAppPassword(passwords: readonly { id: number; password: string }[], credentials: ClientCredentials): number | undefined {
  if (credentials.kind === 'apiKey') return undefined;
  const given = credentials.kind === 'password' ? normaliseAppPassword(plainPassword(credentials.password)) : credentials.token.toLowerCase();
  let matched: number | undefined;
  for (const { id, password } of passwords) {
    const candidates =
      credentials.kind === 'password'
        ? [normaliseAppPassword(password)]
        : [subsonicToken(password, credentials.salt), subsonicToken(password.replace(/-/g, ''), credentials.salt)];
    let hit = false;
    for (const candidate of candidates) hit = sameSecret(candidate, given) || hit;
    if (hit && matched === undefined) matched = id;
  }
  return matched;
}

/** Subsonic's `p` is the password as it is, or `enc:` and its UTF-8 bytes in hex. */
export function plainPassword(p: string): string {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return p;
  return Buffer.from(hex, 'hex').toString('utf8');
}
