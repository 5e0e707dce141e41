import { definePort } from '../../modules/module.js';
import type { StreamSessions } from '../../platform/tasks/tasks.routes.js';
import type { UserRole } from './auth.schema.js';
import type { AuthenticatedUser } from './auth.service.js';

export type { AuthenticatedUser, UserRole };

/** Who is signed in: the bearer token of a request, and the sessions behind event streams. */
export interface Authentication {
  /** The user of a valid session token; throws an unauthorized error otherwise. */
  authenticate(token: string): Promise<AuthenticatedUser>;
  /** Tickets for event streams that end with their session. */
  streams: StreamSessions;
  /** Stops listening for revoked sessions (before the database closes). */
  close(): Promise<void>;
}

/** Who the users are, for modules that show them by name (a song's uploader, a share link's sender). */
export interface Accounts {
  /** The user names of those of `ids` that exist, in one query; a missing user is absent from the map. */
  userNames(ids: readonly number[]): Promise<Map<number, string>>;
  /** The account named `userName` (any case), or without a name the instance's first (the oldest); undefined when there is none. */
  account(userName?: string): Promise<{ id: number; userName: string } | undefined>;
  /** Whether the account exists, is not disabled and is an admin (a signed-in request also carries `currentUser().role`). */
  isAdmin(userId: number): Promise<boolean>;
  /**
   * Makes the account admin or user (the admin page; an identity provider's admin group).
   * Demoting the last admin throws a ConflictError; an unknown account a NotFoundError.
   */
  setRole(userId: number, role: UserRole): Promise<void>;
}

export const authenticationPort = definePort<Authentication>('authentication', 'Checks a session token and ends event streams with their session.');
export const accountsPort = definePort<Accounts>('accounts', 'User names by user id, many in one call.');

/** How a Subsonic client proved who it is (OpenSubsonic: `apiKey`, or `u` with `p` or `t` + `s`). */
export type ClientCredentials =
  { kind: 'apiKey'; key: string } | { kind: 'password'; userName: string; password: string } | { kind: 'token'; userName: string; token: string; salt: string };

/** Why client credentials were refused, in Subsonic's terms (40 wrong, 41 a scheme this credential cannot use, 44 a bad key…). */
export class ClientCredentialsError extends Error {
  constructor(
    readonly code: 40 | 41 | 42 | 43 | 44,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The credentials of apps (Subsonic clients): API keys and app passwords a user made in the
 * profile page. The account password is never one of them.
 */
export interface ClientAuthentication {
  /** The user the credentials belong to; ClientCredentialsError otherwise (rate limits apply per address and per user). */
  authenticate(credentials: ClientCredentials, clientAddress: string): Promise<AuthenticatedUser>;
}

export const clientAuthenticationPort = definePort<ClientAuthentication>(
  'client-authentication',
  "Checks the API keys and app passwords of apps (Subsonic clients); never the account's password.",
);
