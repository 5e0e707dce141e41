import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryRepository } from '../../src/features/library/library.repository.js';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { openMigrationSteps, type MigrationSteps } from '../support/migration-steps.js';

let steps: MigrationSteps;

beforeAll(async () => {
  steps = await openMigrationSteps();
});

afterAll(async () => {
  await steps?.close();
});

describe('migration 0011 (song_search) on a library that already has songs', () => {
  it('makes every existing song searchable, then keeps new ones so', async () => {
    const { client, db } = steps;
    await steps.migrateUpTo('0010_catalog_version');
    await client.exec(`
      insert into users (user_name, email) values ('ann', 'ann@example.org');
      insert into songs (owner_id, display_name, file_name, file_type, storage_key, size, artist, album, track_number)
        select id, 'Halo', 'halo.mp3', 'audio/mpeg', 'songs/halo.mp3', 1, 'Beyoncé', 'I Am... Sasha Fierce', 2 from users;
      insert into songs (owner_id, display_name, file_name, file_type, storage_key, size, artist, album)
        select id, 'Jóga', 'joga.mp3', 'audio/mpeg', 'songs/joga.mp3', 1, 'Björk', 'Homogenic' from users;`);

    await steps.migrateToNewest();
    const rows = await client.query<{ title_key: string; artist_key: string; track_number: number | null }>(
      'select title_key, artist_key, track_number from song_search order by song_id',
    );
    expect(rows.rows).toEqual([
      { title_key: 'halo', artist_key: 'beyoncé', track_number: 2 },
      { title_key: 'jóga', artist_key: 'björk', track_number: null },
    ]);
    const repository = new LibraryRepository(db);
    const [ann] = await db.select().from(users);
    const names = async (search: string) => (await repository.list(ann!.id, { search })).records.map((record) => record.row.displayName);
    expect(await names('beyonce')).toEqual(['Halo']);
    expect(await names('bjork homogenic')).toEqual(['Jóga']);
    // The search index moved: songs keeps no trigram index of its own.
    const indexes = await db.execute<{ indexname: string }>(sql`select indexname from pg_indexes where tablename = 'songs' and indexdef like '%gin%'`);
    expect(indexes.rows).toEqual([]);

    await db.insert(songs).values({
      ownerId: ann!.id,
      displayName: 'Halo (live)',
      fileName: 'live.mp3',
      fileType: 'audio/mpeg',
      storageKey: 'songs/live.mp3',
      size: 1,
      artist: 'Beyoncé',
    });
    expect(await names('beyonce')).toEqual(['Halo (live)', 'Halo']);
  });
});
