import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/** The migrations Encore ships, in order. */
export const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/**
 * An embedded database that a test migrates in two steps, as an upgrade does: first to the
 * version that ended at one migration, then (after the test put data in) to the newest.
 */
export interface MigrationSteps {
  client: PGlite;
  db: PgliteDatabase;
  /** Applies the migrations up to and including `lastTag`, as the version that ended there shipped them. */
  migrateUpTo(lastTag: string): Promise<void>;
  /** Applies every migration still to run. */
  migrateToNewest(): Promise<void>;
  close(): Promise<void>;
}

export async function openMigrationSteps(): Promise<MigrationSteps> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-migration-'));
  const client = await PGlite.create({ extensions: { pg_trgm, unaccent } });
  const db = drizzle({ client });
  return {
    client,
    db,
    async migrateUpTo(lastTag) {
      await migrate(db, { migrationsFolder: await migrationsUpTo(root, lastTag) });
    },
    async migrateToNewest() {
      await migrate(db, { migrationsFolder: MIGRATIONS });
    },
    async close() {
      await client.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

async function migrationsUpTo(root: string, lastTag: string): Promise<string> {
  const folder = path.join(root, lastTag);
  await fs.mkdir(path.join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(await fs.readFile(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 1) throw new Error(`no migration ${lastTag} after the first`);
  journal.entries = journal.entries.slice(0, last + 1);
  for (const { tag } of journal.entries) await fs.copyFile(path.join(MIGRATIONS, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  await fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}
