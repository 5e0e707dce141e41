import { definePort } from '../../modules/module.js';
import type { StreamSessions } from '../../platform/tasks/tasks.routes.js';
import type { UserRole } from './auth.schema.js';
import type { AuthenticatedUser } from './auth.service.js';
import type { InvitationRecord, SignUpMode, SignUpSetting } from './sign-up-policy.service.js';

export type { AuthenticatedUser, InvitationRecord, SignUpMode, SignUpSetting, UserRole };

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

/** An account as the admin page lists it. */
export interface AccountRecord {
  id: number;
  userName: string;
  email: string;
  role: UserRole;
  emailVerified: boolean;
  disabled: boolean;
  /** False for accounts made with Google or single sign-on alone. */
  hasPassword: boolean;
  createdAt: Date;
  /** When a session of it was last used (within a few minutes); null: never since roles came. */
  lastSeenAt: Date | null;
}

/** Who may sign up and the invitations, as the admin page changes them. */
export interface SignUpAdministration {
  setting(): Promise<SignUpSetting>;
  /** 409 while SIGNUP in the environment decides. */
  setMode(mode: SignUpMode): Promise<SignUpSetting>;
  /** Mails an invitation link (single use, 7 days) from `invitedBy`. */
  invite(email: string, invitedBy: { id: number; userName: string }): Promise<InvitationRecord>;
  /** The newest first, pending ones and those ended in the last 30 days. */
  invitations(): Promise<InvitationRecord[]>;
  /** Not found when none of that id is pending. */
  revoke(id: number): Promise<void>;
}

/**
 * What an admin may do to accounts (the admin module). The rules stay in auth: the last enabled
 * admin can be neither demoted, disabled nor deleted (ConflictError); unknown ids are NotFoundError.
 */
export interface AccountAdministration {
  list(): Promise<AccountRecord[]>;
  get(id: number): Promise<AccountRecord | undefined>;
  setRole(id: number, role: UserRole): Promise<AccountRecord>;
  /** A disabled account's sessions, API keys and app passwords stop at once; its data stays. */
  setDisabled(id: number, disabled: boolean): Promise<AccountRecord>;
  sendPasswordReset(id: number): Promise<AccountRecord>;
  /** Throws unless `delete` would succeed now (exists, not the last admin): call before removing the account's data elsewhere. */
  assertDeletable(id: number): Promise<AccountRecord>;
  /** Deletes the account row; its tokens, keys, app passwords, and every row other modules keep per user by cascade. */
  delete(id: number): Promise<void>;
  /**
   * Makes an account for someone (Subsonic's createUser, by an admin): the sign-up form's rules
   * (ValidationError), a taken name or address is a ConflictError; no verification mail, SIGNUP
   * not asked (the admin vouches, as the operator's `user create`).
   */
  create(input: { userName: string; email: string; password: string; admin: boolean }): Promise<AccountRecord>;
  /** Sets the account's password by the sign-up rules; its sessions end. */
  setPassword(id: number, password: string): Promise<AccountRecord>;
  /** Changes the account's e-mail address (unverified until its owner opens the mailed link, as on the profile page). */
  setEmail(id: number, email: string): Promise<AccountRecord>;
  /** The password asked again (or, for an account without one, its user name typed out); a ValidationError otherwise. */
  confirmIdentity(userId: number, proof: { password?: string | undefined; userName?: string | undefined }, ip: string): Promise<void>;
  signUp: SignUpAdministration;
}

export const accountAdministrationPort = definePort<AccountAdministration>(
  'account-administration',
  'Admin actions on accounts (list, role, disable, reset mail, delete) and who may sign up (SIGNUP, invitations).',
);

/** Who may create an account now: what GET /api/config tells the auth screen. */
export interface SignUpModeSource {
  mode(): Promise<SignUpMode>;
}

export const signUpModePort = definePort<SignUpModeSource>('sign-up-mode', 'Who may create an account now (SIGNUP): open, invite or closed.');
