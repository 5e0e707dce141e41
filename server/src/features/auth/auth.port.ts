import { definePort } from '../../modules/module.js';
import type { StreamSessions } from '../../platform/tasks/tasks.routes.js';
import type { AuthenticatedUser } from './auth.service.js';

export type { AuthenticatedUser };

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
}

export const authenticationPort = definePort<Authentication>('authentication', 'Checks a session token and ends event streams with their session.');
export const accountsPort = definePort<Accounts>('accounts', 'User names by user id, many in one call.');
