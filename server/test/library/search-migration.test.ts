import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryRepository } from '../../src/features/library/library.repository.js';
import type { Db } from '../../src/platform/db/database.js';
import * as schema from '../../src/platform/db/schema.js';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

let root: string;
let client: PGlite;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-search-migration-'));
  client = await PGlite.create({ extensions: { pg_trgm, unaccent } });
});

afterAll(async () => {
  await client?.close();
  await fs.rm(root, { recursive: true, force: true });
});

/** The migrations folder as a version that ended at `lastTag` shipped it. */
async function migrationsUpTo(lastTag: string): Promise<string> {
  const folder = path.join(root, lastTag);
  await fs.mkdir(path.join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(await fs.readFile(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(last).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, last + 1);
  for (const { tag } of journal.entries) await fs.copyFile(path.join(MIGRATIONS, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  await fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}

describe('migration 0011 (song_search) on a library that already has songs', () => {
  it('makes every existing song searchable, then keeps new ones so', async () => {
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: await migrationsUpTo('0010_catalog_version') });
    await client.exec(`
      insert into users (user_name, email) values ('ann', 'ann@example.org');
      insert into songs (owner_id, display_name, file_name, file_type, storage_key, size, artist, album, track_number)
        select id, 'Halo', 'halo.mp3', 'audio/mpeg', 'songs/halo.mp3', 1, 'Beyoncé', 'I Am... Sasha Fierce', 2 from users;
      insert into songs (owner_id, display_name, file_name, file_type, storage_key, size, artist, album)
        select id, 'Jóga', 'joga.mp3', 'audio/mpeg', 'songs/joga.mp3', 1, 'Björk', 'Homogenic' from users;`);

    await migrate(db, { migrationsFolder: MIGRATIONS });
    const rows = await client.query<{ title_key: string; artist_key: string; track_number: number | null }>('select title_key, artist_key, track_number from song_search order by song_id');
    expect(rows.rows).toEqual([
      { title_key: 'halo', artist_key: 'beyoncé', track_number: 2 },
      { title_key: 'jóga', artist_key: 'björk', track_number: null },
    ]);
    const repository = new LibraryRepository(db as unknown as Db);
    const [ann] = await db.select().from(schema.users);
    const names = async (search: string) => (await repository.list(ann!.id, { search })).records.map((record) => record.row.displayName);
    expect(await names('beyonce')).toEqual(['Halo']);
    expect(await names('bjork homogenic')).toEqual(['Jóga']);
    // The search index moved: songs keeps no trigram index of its own.
    const indexes = await db.execute<{ indexname: string }>(sql`select indexname from pg_indexes where tablename = 'songs' and indexdef like '%gin%'`);
    expect(indexes.rows).toEqual([]);

    await db.insert(schema.songs).values({ ownerId: ann!.id, displayName: 'Halo (live)', fileName: 'live.mp3', fileType: 'audio/mpeg', storageKey: 'songs/live.mp3', size: 1, artist: 'Beyoncé' });
    expect(await names('beyonce')).toEqual(['Halo (live)', 'Halo']);
  });
});
