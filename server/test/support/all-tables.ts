import { readdir } from 'node:fs/promises';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';

const SOURCE = new URL('../../src/', import.meta.url);

/**
 * Every table Encore's migrations are made from: the tables of each `*.schema.ts` under
 * server/src (the files drizzle.config.ts gives drizzle-kit), found on disk rather than listed,
 * so a module's new schema file is in it without a line here. For tests only: the server itself
 * never gathers every table (platform/ knows no feature; each repository names its own).
 */
export async function allTables(): Promise<PgTable[]> {
  const files = (await readdir(SOURCE, { recursive: true })).filter((file) => file.endsWith('.schema.ts')).sort();
  const tables = new Set<PgTable>();
  for (const file of files) {
    const exported = (await import(new URL(file, SOURCE).href)) as Record<string, unknown>;
    for (const value of Object.values(exported)) if (is(value, PgTable)) tables.add(value);
  }
  return [...tables];
}
