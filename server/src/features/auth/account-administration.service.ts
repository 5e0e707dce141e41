import { emailField, signUpBody } from '@encore/common/auth.contract';
import { authMessagesEn } from '@encore/common/messages.en';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { AccountAdministration, AccountRecord } from './auth.port.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { withUniqueness, type AuthService } from './auth.service.js';
import type { PasswordHasher } from './password-hasher.js';
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
      hasher: PasswordHasher;
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

  async create(input: { userName: string; email: string; password: string; admin: boolean }): Promise<AccountRecord> {
    const parsed = signUpBody.safeParse({ userName: input.userName, email: input.email, password: input.password });
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(' '));
    const fields = parsed.data;
    const taken = await this.deps.repository.takenBy({ userName: fields.userName, email: fields.email });
    if (taken.userName) throw new ConflictError('That user name is already taken.');
    if (taken.email) throw new ConflictError('An account with that e-mail already exists.');
    const passwordHash = await this.deps.hasher.hash(fields.password);
    // The admin vouches for the address: no verification mail (as the operator's `user create`).
    const user = await withUniqueness(() =>
      this.deps.signUpPolicy.createByOperator({ userName: fields.userName, email: fields.email, passwordHash, emailVerifiedAt: new Date() }),
    );
    if (!input.admin || user.role === 'admin') return toAccountRecord(user);
    return this.setRole(user.id, 'admin');
  }

  async setPassword(id: number, password: string): Promise<AccountRecord> {
    const parsed = signUpBody.shape.password.safeParse(password);
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(' '));
    const user = await this.deps.repository.setPassword(id, await this.deps.hasher.hash(parsed.data));
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    return toAccountRecord(user);
  }

  async setEmail(id: number, email: string): Promise<AccountRecord> {
    const parsed = emailField.safeParse(email);
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(' '));
    if (!(await this.deps.repository.findById(id))) throw new NotFoundError(USER_NOT_FOUND);
    return toAccountRecord(await this.deps.auth.updateProfile(id, { email: parsed.data }));
  }

  confirmIdentity(userId: number, proof: { password?: string | undefined; userName?: string | undefined }, ip: string): Promise<void> {
    return this.deps.auth.confirmIdentity(userId, proof, ip);
  }
}
