import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { PlaylistsRepository } from '../../src/features/playlists/playlists.repository.js';
import { playlistSongs, playlists } from '../../src/features/playlists/playlists.schema.js';
import { account } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(engines)('a generated playlist (an AI playlist) on %s', (engine) => {
  let t: TestApp;
  let ownerId: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off', ANALYSIS_BACKFILL: 'false', ANALYSIS_ON_INGEST: 'false' });
    await account(t, 'maker');
    const [user] = await t.app.encore.platform.database.db.select().from(users).where(eq(users.userName, 'maker'));
    ownerId = user?.id ?? 0;
  });
  afterAll(async () => t?.close());

  async function song(name: string): Promise<number> {
    const [row] = await t.app.encore.platform.database.db
      .insert(songs)
      .values({ ownerId, displayName: name, fileName: `${name}.mp3`, fileType: 'audio/mpeg', storageKey: `uploads/${name}.mp3`, size: 1 })
      .returning({ id: songs.id });
    return row?.id ?? 0;
  }

  async function contents(playlistId: number) {
    const db = t.app.encore.platform.database.db;
    const [playlist] = await db.select().from(playlists).where(eq(playlists.id, playlistId));
    const entries = await db
      .select({ songId: playlistSongs.songId, position: playlistSongs.position })
      .from(playlistSongs)
      .where(eq(playlistSongs.playlistId, playlistId))
      .orderBy(asc(playlistSongs.position));
    return { playlist, entries };
  }

  it('keeps its songs in the given order with its prompt, and leaves out a song deleted since it was chosen', async () => {
    const repository = new PlaylistsRepository(t.app.encore.platform.database.db);
    const [a, b, c] = [await song('gen-a'), await song('gen-b'), await song('gen-c')];
    const whole = await repository.createGenerated(ownerId, { name: 'Calm', description: 'Calm songs', prompt: 'something calm', songIds: [c, a, b] });
    const saved = await contents(whole);
    expect(saved.playlist).toMatchObject({ ownerId, name: 'Calm', description: 'Calm songs', aiPrompt: 'something calm' });
    expect(saved.entries).toEqual([
      { songId: c, position: 0 },
      { songId: a, position: 1 },
      { songId: b, position: 2 },
    ]);

    await t.app.encore.platform.database.db.delete(songs).where(eq(songs.id, a));
    const gapped = await repository.createGenerated(ownerId, { name: 'Again', description: 'Again', prompt: 'again', songIds: [c, a, b] });
    expect((await contents(gapped)).entries).toEqual([
      { songId: c, position: 0 },
      { songId: b, position: 1 },
    ]);
  });
});
