import type { SignUpMode } from '@encore/common/auth.contract';
import { authMessagesEn } from '@encore/common/messages.en';
import { hashOneTimeToken, newOneTimeToken } from '../../platform/crypto/one-time-token.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors/app-errors.js';
import type { MailMessage } from '../../platform/mail/mail.types.js';
import type { AuthRepository, NewUser, UserRow } from './auth.repository.js';
import { invitationMail } from './invitation.mail.js';
import type { InvitationListing, SignUpRepository } from './sign-up.repository.js';

export type { SignUpMode };

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7;
/** How long ended invitations stay in the admin page's list before they are forgotten. */
const ENDED_INVITATIONS_KEPT_DAYS = 30;
const DAY_MS = 24 * 3600_000;
const MODES: readonly SignUpMode[] = ['open', 'invite', 'closed'];

export const SIGNUP_FROM_ENVIRONMENT = 'Sign-up is set by SIGNUP in the environment of this Encore; change it there.';

/** Who may sign up, and whether the environment (SIGNUP) decides it rather than the admin page. */
export interface SignUpSetting {
  mode: SignUpMode;
  fromEnvironment: boolean;
}

export type InvitationState = 'pending' | 'used' | 'revoked' | 'expired';

export interface InvitationRecord {
  id: number;
  email: string;
  state: InvitationState;
  invitedBy: string | null;
  usedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** How a new account shows it was invited: the link's token, or (single sign-on) the address an invitation went to. */
export type InvitationProof = { token: string } | { email: string };

export interface SignUpPolicyDeps {
  repository: SignUpRepository;
  users: AuthRepository;
  /** SIGNUP from the environment; it wins over the stored setting. */
  environment: SignUpMode | undefined;
  enqueueMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
}

/**
 * Who may create an account (SIGNUP: open, invite or closed) and the invitations admins mail.
 * Every way of creating an account (the form, Google, single sign-on) goes through
 * `createAccount`, so the rule holds for all of them.
 */
export class SignUpPolicy {
  constructor(private readonly deps: SignUpPolicyDeps) {}

  async setting(): Promise<SignUpSetting> {
    if (this.deps.environment) return { mode: this.deps.environment, fromEnvironment: true };
    const stored = await this.deps.repository.storedMode();
    return { mode: MODES.find((mode) => mode === stored) ?? 'open', fromEnvironment: false };
  }

  async mode(): Promise<SignUpMode> {
    return (await this.setting()).mode;
  }

  /**
   * Who may create an account now: the mode, except that an instance without accounts is open
   * to its first (it becomes the admin; nobody could create or invite it otherwise).
   */
  async modeNow(): Promise<SignUpMode> {
    const mode = await this.mode();
    return mode !== 'open' && !(await this.deps.users.hasAccounts()) ? 'open' : mode;
  }

  /** The admin page's choice; refused (409) while SIGNUP in the environment decides. */
  async setMode(mode: SignUpMode): Promise<SignUpSetting> {
    if (this.deps.environment) throw new ConflictError(SIGNUP_FROM_ENVIRONMENT);
    await this.deps.repository.storeMode(mode);
    return { mode, fromEnvironment: false };
  }

  /**
   * Refuses early (before any password is hashed) a sign-up the mode does not allow: 403 when
   * closed, or under invite without a live invitation link mailed to `email` (the new
   * account's address, when known). The first account of an instance is always allowed.
   */
  async assertMaySignUp(invitation: InvitationProof | undefined, email?: string): Promise<void> {
    const mode = await this.modeNow();
    if (mode === 'closed') throw new ForbiddenError(authMessagesEn.signUpClosed);
    if (mode === 'open') return;
    if (!invitation) throw new ForbiddenError(authMessagesEn.signUpInviteOnly);
    if (!('token' in invitation)) return;
    const live = await this.deps.repository.liveInvitation(hashOneTimeToken(invitation.token));
    if (!live) throw new ForbiddenError(authMessagesEn.invitationInvalid);
    if (email !== undefined && live.email.toLowerCase() !== email.trim().toLowerCase()) throw new ForbiddenError(authMessagesEn.invitationOtherEmail);
  }

  /**
   * Creates an account as the mode allows. The instance's first account is made whatever the
   * mode (decided under the lock of every creation: of first sign-ups at once, one is first).
   * Under invite the invitation, which must have been mailed to the account's address, is used
   * up in the same transaction (single use); under open an invitation link still counts, so an
   * account made for the invited address starts verified. Unique-name conflicts surface as the
   * database's.
   */
  async createAccount(values: NewUser, invitation?: InvitationProof): Promise<UserRow> {
    const mode = await this.mode();
    if (mode !== 'open') {
      const first = await this.deps.users.createFirst(values);
      if (first) return first;
    }
    await this.assertMaySignUp(invitation, values.email);
    if (invitation) {
      const proof = 'token' in invitation ? { tokenHash: hashOneTimeToken(invitation.token) } : { email: invitation.email };
      const user = await this.deps.users.createInvited(values, proof);
      if (user) return user;
      if (mode === 'invite') {
        throw new ForbiddenError('token' in invitation ? authMessagesEn.invitationInvalid : authMessagesEn.signUpInviteOnly);
      }
    }
    return this.deps.users.create(values);
  }

  /**
   * Creates an account the server's operator asked for (`user create` on the command line): the
   * one way past the mode, for an instance whose sign-up is closed. The first account of the
   * instance is its admin, as any.
   */
  async createByOperator(values: NewUser): Promise<UserRow> {
    return this.deps.users.create(values);
  }

  /** Mails an invitation link to `email`, valid once for 7 days. */
  async invite(email: string, invitedBy: { id: number; userName: string }): Promise<InvitationRecord> {
    const { token, hash } = newOneTimeToken();
    const row = await this.deps.repository.createInvitation({
      email,
      tokenHash: hash,
      invitedBy: invitedBy.id,
      expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS),
    });
    const link = `${this.deps.publicUrl}/signup?invitation=${encodeURIComponent(token)}`;
    await this.deps.enqueueMail(invitationMail({ to: email, invitedBy: invitedBy.userName, link, days: INVITATION_TTL_DAYS, instance: this.deps.publicUrl }));
    return toInvitation({ ...row, invitedByName: invitedBy.userName, usedByName: null });
  }

  async invitations(now = new Date()): Promise<InvitationRecord[]> {
    const rows = await this.deps.repository.listInvitations(new Date(now.getTime() - ENDED_INVITATIONS_KEPT_DAYS * DAY_MS));
    return rows.map((row) => toInvitation(row, now));
  }

  /** Revokes a pending invitation: its link stops working. Not found when none of that id is pending. */
  async revoke(id: number): Promise<void> {
    if (!(await this.deps.repository.revokeInvitation(id))) throw new NotFoundError('Invitation not found or no longer pending.');
  }

  /** The address a live invitation link was sent to (the sign-up form fills it in); 404 otherwise. */
  async lookUp(token: string): Promise<{ email: string }> {
    const row = await this.deps.repository.liveInvitation(hashOneTimeToken(token));
    if (!row) throw new NotFoundError(authMessagesEn.invitationInvalid);
    return { email: row.email };
  }

  async pruneEnded(now = new Date()): Promise<void> {
    await this.deps.repository.prune(new Date(now.getTime() - ENDED_INVITATIONS_KEPT_DAYS * DAY_MS));
  }
}

function toInvitation(row: InvitationListing, now = new Date()): InvitationRecord {
  const state: InvitationState = row.usedAt ? 'used' : row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'pending';
  return {
    id: row.id,
    email: row.email,
    state,
    invitedBy: row.invitedByName,
    usedBy: row.usedByName,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
