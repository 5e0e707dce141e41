import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigrationSteps, type MigrationSteps } from '../support/migration-steps.js';

let steps: MigrationSteps;

beforeAll(async () => {
  steps = await openMigrationSteps();
});

afterAll(async () => {
  await steps?.close();
});

describe('migration 0013 on playlists whose songs share positions', () => {
  it('numbers such playlists again in the order they showed, leaves the others, then keeps positions apart', async () => {
    const { client } = steps;
    await steps.migrateUpTo('0012_job_liveness');
    await client.exec(`
      insert into users (user_name, email) values ('ann', 'ann@example.org');
      insert into songs (owner_id, display_name, file_name, file_type, storage_key, size)
        select u.id, 'Song ' || n, 's' || n || '.mp3', 'audio/mpeg', 'songs/' || n, 1 from users u, generate_series(1, 5) n;
      insert into playlists (owner_id, name) select id, 'Raced' from users;
      insert into playlists (owner_id, name) select id, 'Fine' from users;
      insert into playlist_songs (playlist_id, song_id, position, added_at)
        select p.id, s.id, v.position, timestamptz '2026-01-01' + v.added * interval '1 minute'
        from playlists p, songs s, (values ('Song 1', 1, 1), ('Song 2', 2, 3), ('Song 3', 2, 2), ('Song 4', 3, 4), ('Song 5', 3, 5)) as v(name, position, added)
        where p.name = 'Raced' and s.display_name = v.name;
      insert into playlist_songs (playlist_id, song_id, position)
        select p.id, s.id, s.id * 10 from playlists p, songs s where p.name = 'Fine' and s.display_name in ('Song 1', 'Song 2');`);

    await steps.migrateToNewest();
    const order = async (name: string) =>
      (
        await client.query<{ name: string; position: number }>(
          `select s.display_name as name, ps.position from playlist_songs ps join songs s on s.id = ps.song_id join playlists p on p.id = ps.playlist_id where p.name = $1 order by ps.position`,
          [name],
        )
      ).rows;
    expect(await order('Raced')).toEqual([
      { name: 'Song 1', position: 1 },
      { name: 'Song 3', position: 2 },
      { name: 'Song 2', position: 3 },
      { name: 'Song 4', position: 4 },
      { name: 'Song 5', position: 5 },
    ]);
    const fine = await order('Fine');
    expect(fine.map((row) => row.name)).toEqual(['Song 1', 'Song 2']);
    expect(fine[1]!.position - fine[0]!.position).toBe(10);

    await expect(client.exec(`update playlist_songs set position = 1 where position = 2`)).rejects.toThrow(/playlist_songs_position_key/);
    // One statement may still permute positions.
    await client.exec(`update playlist_songs ps set position = 6 - ps.position from playlists p where p.id = ps.playlist_id and p.name = 'Raced'`);
    expect((await order('Raced')).map((row) => row.name)).toEqual(['Song 5', 'Song 4', 'Song 2', 'Song 3', 'Song 1']);
  });
});
