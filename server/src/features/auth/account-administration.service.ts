import { authMessagesEn } from '@encore/common/messages.en';
import { ConflictError, NotFoundError } from '../../platform/errors/app-errors.js';
import type { AccountAdministration, AccountRecord } from './auth.port.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { AuthService } from './auth.service.js';
import type { SignUpPolicy } from './sign-up-policy.service.js';

const USER_NOT_FOUND = 'User not found.';

export function toAccountRecord(user: UserRow): AccountRecord {
  return {
    id: user.id,
    userName: user.userName,
    email: user.email,
    role: user.role,
    emailVerified: user.emailVerifiedAt !== null,
    disabled: user.disabledAt !== null,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt,
    lastSeenAt: user.lastSeenAt,
  };
}

/** What the admin module may do to accounts, through the auth port: the rules stay here. */
export class AccountAdministrationService implements AccountAdministration {
  constructor(
    private readonly deps: {
      repository: AuthRepository;
      auth: AuthService;
      signUpPolicy: SignUpPolicy;
    },
  ) {}

  get signUp(): SignUpPolicy {
    return this.deps.signUpPolicy;
  }

  async list(): Promise<AccountRecord[]> {
    return (await this.deps.repository.listAll()).map(toAccountRecord);
  }

  async get(id: number): Promise<AccountRecord | undefined> {
    const user = await this.deps.repository.findById(id);
    return user && toAccountRecord(user);
  }

  async setRole(id: number, role: 'admin' | 'user'): Promise<AccountRecord> {
    return toAccountRecord(await this.deps.auth.setRole(id, role));
  }

  async setDisabled(id: number, disabled: boolean): Promise<AccountRecord> {
    const result = await this.deps.repository.setDisabled(id, disabled);
    if (result === 'last-admin') throw new ConflictError('The last admin cannot be disabled. Make another account admin first.');
    if (!result) throw new NotFoundError(USER_NOT_FOUND);
    await this.deps.auth.credentialsChanged(id);
    return toAccountRecord(result);
  }

  /** Mails the account a password reset link, as forgot-password would. */
  async sendPasswordReset(id: number): Promise<AccountRecord> {
    const user = await this.deps.repository.findById(id);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    await this.deps.auth.passwordReset.processResetRequest({ email: user.email, userName: user.userName });
    return toAccountRecord(user);
  }

  async assertDeletable(id: number): Promise<AccountRecord> {
    const user = await this.deps.repository.findById(id);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    if (await this.deps.repository.isLastAdmin(id)) throw new ConflictError(authMessagesEn.lastAdmin);
    return toAccountRecord(user);
  }

  async delete(id: number): Promise<void> {
    const result = await this.deps.repository.deleteAccount(id);
    if (result === 'last-admin') throw new ConflictError(authMessagesEn.lastAdmin);
    if (!result) throw new NotFoundError(USER_NOT_FOUND);
    await this.deps.auth.credentialsChanged(id);
  }

  confirmIdentity(userId: number, proof: { password?: string | undefined; userName?: string | undefined }, ip: string): Promise<void> {
    return this.deps.auth.confirmIdentity(userId, proof, ip);
  }
}
