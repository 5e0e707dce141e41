/**
 * PostgreSQL's error codes (SQLSTATE), read the same way on PGlite and node-postgres. Both
 * put `code` (and `constraint`) on their error; drizzle may wrap it, so the `cause` chain is
 * searched too.
 */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** The driver's error carrying `code` inside `error`, or undefined. */
function findPgError(error: unknown, code: string): PgErrorFields | undefined {
  const seen = new Set<unknown>();
  for (let current: unknown = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as PgErrorFields).cause) {
    seen.add(current);
    if ((current as PgErrorFields).code === code) return current as PgErrorFields;
  }
  return undefined;
}

function violates(error: unknown, code: string, constraint: string | undefined): boolean {
  const found = findPgError(error, code);
  return found !== undefined && (constraint === undefined || found.constraint === constraint);
}

/** A unique index refused the row; with `constraint`, only that index's refusal counts. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violates(error, UNIQUE_VIOLATION, constraint);
}

/** A foreign key refused the row (what it points at does not exist, or no longer). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return violates(error, FOREIGN_KEY_VIOLATION, constraint);
}
