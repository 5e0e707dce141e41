import type { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { authModule } from '../features/auth/auth.module.js';
import type { UserRow } from '../features/auth/auth.repository.js';
import type { OperatorAccounts } from '../features/auth/operator-accounts.service.js';
import { encoreModules } from '../features/modules.js';
import { StartedModules } from '../modules/module-runtime.js';
import { EmbeddedDatabaseInUseError } from '../platform/db/embedded-lock.js';
import { AppError } from '../platform/errors/app-errors.js';
import { startPlatform } from '../platform/platform.js';
import { PasswordInputError, readPassword, type TerminalInput } from './password-input.js';

export const USER_USAGE = [
  'Usage:',
  '  npm run user -- create --email <address> [--name <user name>] [--admin]',
  '  npm run user -- reset-password --email <address>',
  '  npm run user -- list',
  'The password is read from stdin (its first line), or typed twice when run in a terminal; never give it as an argument.',
].join('\n');

export type UserCommand =
  { action: 'create'; email: string; userName?: string; admin: boolean } | { action: 'reset-password'; email: string } | { action: 'list' };

export class UserUsageError extends Error {}

/** `user <action> …` without the password, which never comes from argv. */
export function parseUserArgs(args: readonly string[]): UserCommand {
  const [action, ...rest] = args;
  const options = new Map<string, string | true>();
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index] as string;
    const [name, inline] = arg.startsWith('--') ? splitOption(arg) : [undefined, undefined];
    if (name === undefined) throw new UserUsageError(`Unexpected argument '${arg}'.`);
    if (name === 'password')
      throw new UserUsageError(
        'A password is never given as an argument (other users of this machine can read those): pipe it to stdin, or type it when asked.',
      );
    if (!['email', 'name', 'admin'].includes(name)) throw new UserUsageError(`Unknown option --${name}.`);
    if (name === 'admin') {
      if (inline !== undefined) throw new UserUsageError('--admin takes no value.');
      options.set(name, true);
      continue;
    }
    const value = inline ?? rest[++index];
    if (value === undefined || value.startsWith('--') || !value.trim()) throw new UserUsageError(`--${name} needs a value.`);
    options.set(name, value);
  }
  const text = (name: string) => {
    const value = options.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const allowOnly = (...names: string[]) => {
    for (const name of options.keys()) if (!names.includes(name)) throw new UserUsageError(`--${name} does not go with '${action}'.`);
  };
  const email = () => {
    const value = text('email');
    if (!value) throw new UserUsageError(`'${action}' needs --email.`);
    return value;
  };
  switch (action) {
    case 'create': {
      allowOnly('email', 'name', 'admin');
      const userName = text('name');
      return { action, email: email(), admin: options.has('admin'), ...(userName === undefined ? {} : { userName }) };
    }
    case 'reset-password':
      allowOnly('email');
      return { action, email: email() };
    case 'list':
      allowOnly();
      return { action };
    default:
      throw new UserUsageError(action === undefined ? 'Which user command?' : `Unknown user command '${action}'.`);
  }
}

function splitOption(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals < 0 ? [arg.slice(2), undefined] : [arg.slice(2, equals), arg.slice(equals + 1)];
}

/** The accounts as a table: e-mail, name, role, disabled, created (UTC). */
export function formatUserTable(users: readonly UserRow[]): string {
  if (users.length === 0) return 'No accounts yet.';
  const rows = [
    ['EMAIL', 'NAME', 'ROLE', 'DISABLED', 'CREATED (UTC)'],
    ...users.map((user) => [user.email, user.userName, user.role, user.disabledAt ? 'yes' : 'no', user.createdAt.toISOString().slice(0, 16).replace('T', ' ')]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => Array.from(row[column] ?? '').length)));
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - Array.from(cell).length))).join('  '))
    .join('\n');
}

export interface UserCommandIo {
  stdin: TerminalInput;
  stdout: Writable;
  stderr: Writable;
}

/**
 * `main.ts user …`. Exit codes: 0 done; 1 refused or failed (a rule, a taken address, the
 * database in use by a running Encore); 2 a wrong command line. The password is read before the
 * database is opened, so a prompt never waits on it.
 */
export async function runUserCommand(args: readonly string[], io: UserCommandIo, open: () => Promise<OperatorSession>): Promise<number> {
  let command: UserCommand;
  let password = '';
  try {
    command = parseUserArgs(args);
    if (command.action !== 'list') password = await readPassword(io.stdin, io.stderr);
  } catch (error) {
    if (error instanceof UserUsageError) {
      io.stderr.write(`${error.message}\n${USER_USAGE}\n`);
      return 2;
    }
    if (error instanceof PasswordInputError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let session: OperatorSession | undefined;
  try {
    session = await open();
    const { accounts } = session;
    if (command.action === 'list') {
      io.stdout.write(`${formatUserTable(await accounts.list())}\n`);
    } else if (command.action === 'create') {
      const user = await accounts.create({ email: command.email, userName: command.userName, password, admin: command.admin });
      io.stdout.write(`Created the ${user.role} account ${user.userName} <${user.email}>. It can sign in now.\n`);
    } else {
      const user = await accounts.resetPassword(command.email, password);
      io.stdout.write(`Set a new password for ${user.userName} <${user.email}>; its sessions have ended.\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError || error instanceof EmbeddedDatabaseInUseError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await session?.close();
  }
}

export interface OperatorSession {
  accounts: OperatorAccounts;
  close(): Promise<void>;
}

/**
 * The platform and the modules as the `import` command starts them (migrations included, so a
 * new data folder or database is made ready), without HTTP and without working jobs. On the
 * embedded database this takes its lock: with a server running on the same DATA_DIR it fails
 * with the lock's message and changes nothing.
 */
async function openOperatorSession(): Promise<OperatorSession> {
  const config = loadConfig(process.env);
  const logger = pino({ level: process.env['LOG_LEVEL'] ? config.logLevel : 'warn' }, pino.destination(2));
  const platform = await startPlatform(config, logger);
  try {
    const modules = await StartedModules.start(encoreModules, platform, logger);
    return { accounts: modules.internals(authModule).operatorAccounts, close: () => platform.close() };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** `main.ts user …`, as main.ts dispatches it. */
export async function userCommand(): Promise<void> {
  process.exitCode = await runUserCommand(process.argv.slice(3), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, openOperatorSession);
}
