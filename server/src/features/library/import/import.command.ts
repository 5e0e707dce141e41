import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Accounts } from '../../auth/auth.port.js';
import type { FolderImport, ImportOptions } from './folder-import.js';
import { formatSummary, ProgressPrinter, type ProgressOutput } from './import-progress.js';

export const IMPORT_USAGE = 'Usage: npm run import -- <folder> [--user <userName>]';
export const NO_ACCOUNT = 'Create an account first, or name one with --user.';

export class ImportUsageError extends Error {}

export function parseImportArgs(args: readonly string[]): { folder: string; userName?: string } {
  let folder: string | undefined;
  let userName: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--user' || arg.startsWith('--user=')) {
      userName = arg === '--user' ? args[++index] : arg.slice('--user='.length);
      if (!userName) throw new ImportUsageError(`--user needs a user name. ${IMPORT_USAGE}`);
    } else if (arg.startsWith('--')) throw new ImportUsageError(`Unknown option ${arg}. ${IMPORT_USAGE}`);
    else if (folder === undefined) folder = arg;
    else throw new ImportUsageError(`One folder at a time. ${IMPORT_USAGE}`);
  }
  if (!folder) throw new ImportUsageError(IMPORT_USAGE);
  return userName === undefined ? { folder } : { folder, userName };
}

export interface ImportCommandDeps {
  folderImport: FolderImport;
  accounts: Accounts;
  /** The summary. */
  stdout: ProgressOutput;
  /** The progress line and the errors. */
  stderr: ProgressOutput;
  /** Aborted on Ctrl-C: the import stops after the batch in hand. */
  signal?: AbortSignal;
  afterFile?: ImportOptions['afterFile'];
  /** Where a relative folder is taken from (npm runs scripts from the project's root, and says where it was called in INIT_CWD). */
  cwd?: string;
}

/**
 * `main.ts import <folder> [--user <name>]`. Exit codes: 0 when every file was imported,
 * skipped or refused for a reason of its own; 1 when something else failed (the storage, the
 * database) or the command could not start; 2 for a wrong command line; 130 when interrupted.
 */
export async function runImportCommand(args: readonly string[], deps: ImportCommandDeps): Promise<number> {
  let parsed: { folder: string; userName?: string };
  try {
    parsed = parseImportArgs(args);
  } catch (error) {
    if (!(error instanceof ImportUsageError)) throw error;
    deps.stderr.write(`${error.message}\n`);
    return 2;
  }
  const folder = path.resolve(deps.cwd ?? process.cwd(), parsed.folder);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) {
    deps.stderr.write(`${folder} is not a folder this process can read.\n`);
    return 1;
  }
  const owner = await deps.accounts.account(parsed.userName);
  if (!owner) {
    deps.stderr.write(parsed.userName === undefined ? `${NO_ACCOUNT}\n` : `There is no account named ${parsed.userName}. ${NO_ACCOUNT}\n`);
    return 1;
  }
  deps.stderr.write(`Importing ${folder} for ${owner.userName}…\n`);
  const started = Date.now();
  const printer = new ProgressPrinter(deps.stderr, started);
  const report = await deps.folderImport.run(folder, {
    ownerId: owner.id,
    onProgress: (progress) => printer.update(progress),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.afterFile ? { afterFile: deps.afterFile } : {}),
  });
  printer.finish();
  deps.stdout.write(`${formatSummary(report, (Date.now() - started) / 1000)}\n`);
  if (report.failed.length > 0) return 1;
  return report.interrupted ? 130 : 0;
}
