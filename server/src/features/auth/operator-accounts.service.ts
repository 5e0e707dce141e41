import { signUpBody } from '@encore/common/auth.contract';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { withUniqueness } from './auth.service.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SignUpPolicy } from './sign-up-policy.service.js';

export interface OperatorAccountsDeps {
  repository: AuthRepository;
  signUpPolicy: SignUpPolicy;
  hasher: PasswordHasher;
}

export interface OperatorNewAccount {
  email: string;
  /** The user name; the e-mail address's local part when not given. */
  userName?: string | undefined;
  password: string;
  admin: boolean;
}

/**
 * What the server's operator does from the command line (`user create`, `user reset-password`,
 * `user list`): for an instance whose sign-up is closed, a forgotten password without a mail
 * server, a lost admin. The same rules as the sign-up form (the contract's fields), the same
 * hasher and account creation; only the sign-up mode is not asked.
 */
export class OperatorAccounts {
  constructor(private readonly deps: OperatorAccountsDeps) {}

  async create(input: OperatorNewAccount): Promise<UserRow> {
    const userName = input.userName ?? input.email.trim().split('@')[0] ?? '';
    const fields = valid({ userName, email: input.email, password: input.password });
    const taken = await this.deps.repository.takenBy({ userName: fields.userName, email: fields.email });
    if (taken.email) throw new ConflictError(`An account with the e-mail ${fields.email} already exists (user reset-password sets its password).`);
    if (taken.userName) throw new ConflictError(`The user name ${fields.userName} is already taken: choose another with --name.`);
    const passwordHash = await this.deps.hasher.hash(fields.password);
    // The operator vouches for the address: no verification mail (there may be no mail server).
    const user = await withUniqueness(() =>
      this.deps.signUpPolicy.createByOperator({ userName: fields.userName, email: fields.email, passwordHash, emailVerifiedAt: new Date() }),
    );
    if (!input.admin || user.role === 'admin') return user;
    const promoted = await this.deps.repository.setRole(user.id, 'admin');
    if (typeof promoted !== 'object') throw new Error('the new account vanished before it was made admin');
    return promoted;
  }

  /** Sets the password of the account with this e-mail address; its sessions end. */
  async resetPassword(email: string, password: string): Promise<UserRow> {
    const user = await this.deps.repository.findByEmail(email.trim());
    if (!user) throw new NotFoundError(`There is no account with the e-mail ${email.trim()}.`);
    const fields = valid({ userName: user.userName, email: user.email, password });
    const changed = await this.deps.repository.setPassword(user.id, await this.deps.hasher.hash(fields.password));
    if (!changed) throw new NotFoundError(`There is no account with the e-mail ${email.trim()}.`);
    return changed;
  }

  /** Every account, oldest first. */
  async list(): Promise<UserRow[]> {
    return this.deps.repository.listAll();
  }
}

/** The sign-up form's rules, with its messages. */
function valid(input: { userName: string; email: string; password: string }): { userName: string; email: string; password: string } {
  const parsed = signUpBody.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => issue.message).join(' '));
  return parsed.data;
}
