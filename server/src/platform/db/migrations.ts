import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/**
 * A start that could not bring the database's schema up to date. drizzle's migrator runs every
 * pending migration in one transaction, so a failure rolls all of them back: the database is
 * as the previous version left it, and that version still runs on it.
 */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** drizzle's migrations table (its defaults, which Encore keeps). */
export const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';

interface JournalEntry {
  tag: string;
  when: number;
}

/**
 * Runs `migrate`; when it fails, throws a MigrationError that names the migration that failed,
 * why, and the pending ones rolled back with it. `lastApplied` reads the newest migration's
 * time (`created_at`) in the migrations table after the rollback (undefined: none applied).
 */
export async function migrateOrExplain(folder: string, migrate: () => Promise<void>, lastApplied: () => Promise<number | undefined>): Promise<void> {
  try {
    await migrate();
  } catch (error) {
    throw await explainFailure(folder, error, lastApplied);
  }
}

async function explainFailure(folder: string, error: unknown, lastApplied: () => Promise<number | undefined>): Promise<MigrationError> {
  const reason = rootMessage(error);
  let entries: JournalEntry[];
  let last: number | undefined;
  try {
    entries = (JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }).entries;
    last = await lastApplied();
  } catch {
    return new MigrationError(`The database could not be upgraded: ${reason}`, { cause: error });
  }
  const pending = entries.flatMap((entry, index) => (last === undefined || entry.when > last ? [{ ...entry, index }] : []));
  const first = pending[0];
  const final = pending.at(-1);
  if (!first || !final) return new MigrationError(`The database could not be upgraded: ${reason}`, { cause: error });
  const failedQuery = queryOf(error);
  const statements = failedQuery === undefined ? [] : readMigrationFiles({ migrationsFolder: folder });
  const failed = pending.find((entry) => statements[entry.index]?.sql.includes(failedQuery ?? ''));
  const rolledBack =
    first === final
      ? `The pending migration ${first.tag} was not applied: it runs in a transaction, which was rolled back`
      : `None of the ${pending.length} pending migrations (${first.tag} to ${final.tag}) was applied: they run in one transaction, which was rolled back`;
  return new MigrationError(
    `The database could not be upgraded: ${failed ? `migration ${failed.tag} failed: ` : ''}${reason}. ${rolledBack}, and the database is as it was before this start.`,
    { cause: error },
  );
}

/** The statement a DrizzleQueryError failed on. */
function queryOf(error: unknown): string | undefined {
  return error instanceof Error && 'query' in error && typeof error.query === 'string' ? error.query : undefined;
}

/** The database's own message (a DrizzleQueryError's cause), not drizzle's "Failed query: …". */
function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
