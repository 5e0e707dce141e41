import { ConflictError, NotFoundError, UnauthorizedError } from '../../platform/errors/app-errors.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import { AppPasswordCipher, hashApiKey, newApiKey, newAppPassword, normaliseAppPassword, sameSecret, subsonicToken } from './app-credential-secrets.js';
import type { AppCredentialKind, AppCredentialSummary, AppCredentialsRepository } from './app-credentials.repository.js';
import { ClientCredentialsError, type ClientAuthentication, type ClientCredentials } from './auth.port.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { ACCOUNT_DISABLED_MESSAGE, type AuthenticatedUser, type AuthLimits } from './auth.service.js';
import type { PasswordHasher } from './password-hasher.js';

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
}

/**
 * API keys and app passwords: what apps (Subsonic clients) sign in with. The account password
 * is never one of them. Failed attempts count against the client's address and the user name
 * (fixed windows, as the web sign-in); a success clears the user name's count.
 */
export class AppCredentialsService implements ClientAuthentication {
  private readonly cipher: AppPasswordCipher;
  private readonly rules: Record<'ip' | 'user', RateLimitRule>;

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
    if (!(await this.deps.repository.delete(kind, userId, id))) {
      throw new NotFoundError(kind === 'api-key' ? 'API key not found.' : 'App password not found.');
    }
  }

  async authenticate(credentials: ClientCredentials, clientAddress: string): Promise<AuthenticatedUser> {
    const { rateLimiter } = this.deps;
    await rateLimiter.assertBelow(this.rules.ip, clientAddress);
    if (credentials.kind === 'apiKey') {
      const user = await this.byApiKey(credentials.key);
      if (!user) {
        await rateLimiter.increment(this.rules.ip, clientAddress);
        throw new ClientCredentialsError(44, INVALID_API_KEY);
      }
      if (user.disabledAt) throw new ClientCredentialsError(44, ACCOUNT_DISABLED_MESSAGE);
      return this.identity(user);
    }
    await rateLimiter.assertBelow(this.rules.user, credentials.userName);
    const user = await this.deps.users.findByUserName(credentials.userName);
    const matched = user ? await this.matchAppPassword(user, credentials) : undefined;
    if (user && matched !== undefined) {
      if (user.disabledAt) throw new ClientCredentialsError(40, ACCOUNT_DISABLED_MESSAGE);
      await this.deps.repository.touch('app-password', matched);
      await rateLimiter.reset(this.rules.user, credentials.userName);
      return this.identity(user);
    }
    await rateLimiter.increment(this.rules.ip, clientAddress);
    await rateLimiter.increment(this.rules.user, credentials.userName);
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

  private async byApiKey(key: string): Promise<UserRow | undefined> {
    const hash = hashApiKey(key);
    const row = await this.deps.repository.findApiKey(hash);
    // The lookup is by an index on the hash; the comparison is repeated in constant time anyway.
    if (!row || !sameSecret(row.keyHash, hash)) return undefined;
    const user = await this.deps.users.findById(row.userId);
    if (user) await this.deps.repository.touch('api-key', row.id);
    return user;
  }

  /**
   * The id of the user's app password these credentials carry. Every one is decrypted and
   * compared (no early exit), plain passwords as typed in any case and with or without dashes,
   * tokens against the password with and without its dashes.
   */
  private async matchAppPassword(user: UserRow, credentials: Exclude<ClientCredentials, { kind: 'apiKey' }>): Promise<number | undefined> {
    const rows = await this.deps.repository.appPasswordsOf(user.id);
    const given = credentials.kind === 'password' ? normaliseAppPassword(plainPassword(credentials.password)) : credentials.token.toLowerCase();
    let matched: number | undefined;
    for (const row of rows) {
      const password = this.cipher.decrypt(row.ciphertext, user.id);
      if (password === undefined) continue;
      const candidates =
        credentials.kind === 'password'
          ? [normaliseAppPassword(password)]
          : [subsonicToken(password, credentials.salt), subsonicToken(password.replace(/-/g, ''), credentials.salt)];
      let hit = false;
      for (const candidate of candidates) hit = sameSecret(candidate, given) || hit;
      if (hit && matched === undefined) matched = row.id;
    }
    return matched;
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

/** Subsonic's `p` is the password as it is, or `enc:` and its UTF-8 bytes in hex. */
export function plainPassword(p: string): string {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return p;
  return Buffer.from(hex, 'hex').toString('utf8');
}
