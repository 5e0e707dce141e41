import { integer, pgTable, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Another owner's table as a foreign key sees it: its name and its `id`, nothing more. A schema
 * file references another module's rows by key, as SQL does, without importing that module's
 * schema; drizzle-kit writes the same constraint as for the table itself.
 */
export function keyOf(table: 'users' | 'songs'): AnyPgColumn {
  return pgTable(table, { id: integer('id').notNull() }).id;
}

/** The platform's tasks, whose key is a uuid. */
export function uuidKeyOf(table: 'tasks'): AnyPgColumn {
  return pgTable(table, { id: uuid('id').notNull() }).id;
}
