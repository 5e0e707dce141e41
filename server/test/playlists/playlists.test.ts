import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { playlistSongs, playlists } from '../../src/features/playlists/playlists.schema.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface PlaylistBody {
  id: number;
  name: string;
  description: string | null;
  songCount: number;
  songs: { id: number; displayName: string; isLiked?: boolean }[];
}

describe.each(engines)('playlists on %s', (engine) => {
  let t: TestApp;
  let ada: string;
  let bob: string;
  const songIds: number[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine);
    ada = await tokenFor('ada');
    bob = await tokenFor('bob');
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select().from(users).where(eq(users.userName, 'ada'));
    for (const name of ['First Song', 'Second Song', 'Third Song', 'Fourth Song']) {
      const [row] = await db
        .insert(songs)
        .values({
          ownerId: owner?.id ?? 0,
          displayName: name,
          fileName: `${name}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${owner?.id}/${name.replace(' ', '-')}/song.mp3`,
          size: 1000,
          durationSeconds: 61.4,
          artist: 'The Testers',
          title: name,
        })
        .returning();
      songIds.push(row?.id ?? 0);
    }
  });
  afterAll(async () => t?.close());

  async function tokenFor(userName: string): Promise<string> {
    await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { userName, email: `${userName}@example.com`, password: 'password 123' } });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName, password: 'password 123' } });
    return response.json<{ token: string }>().token;
  }

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (token: string, body: unknown) => call(token, 'POST', '/api/playlists', body);

  it('creates, lists, reads, updates and deletes a playlist', async () => {
    const created = await create(ada, { name: '  Road Trip  ', description: 'Long drives' });
    expect(created.statusCode).toBe(201);
    const playlist = created.json<PlaylistBody>();
    expect(playlist).toMatchObject({ name: 'Road Trip', description: 'Long drives', songCount: 0, songs: [] });

    const list = await call(ada, 'GET', '/api/playlists');
    expect(list.json<PlaylistBody[]>().map((p) => p.name)).toContain('Road Trip');

    const updated = await call(ada, 'PUT', `/api/playlists/${playlist.id}`, { name: 'Road Trip 2', description: '' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Road Trip 2', description: null });

    expect((await call(ada, 'DELETE', `/api/playlists/${playlist.id}`)).statusCode).toBe(204);
    expect((await call(ada, 'GET', `/api/playlists/${playlist.id}`)).statusCode).toBe(404);
  });

  it("shows an AI playlist's prompt (aiPrompt) in the list and on its own; null for one a user made", async () => {
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select().from(users).where(eq(users.userName, 'ada'));
    const [ai] = await db
      .insert(playlists)
      .values({ ownerId: owner?.id ?? 0, name: 'Calm', description: null, aiPrompt: 'something calm' })
      .returning();
    const mine = (await create(ada, { name: 'Mine' })).json<PlaylistBody & { aiPrompt: string | null }>();
    expect(mine.aiPrompt).toBeNull();
    const one = (await call(ada, 'GET', `/api/playlists/${ai?.id}`)).json<{ aiPrompt: string | null }>();
    expect(one.aiPrompt).toBe('something calm');
    const list = (await call(ada, 'GET', '/api/playlists')).json<(PlaylistBody & { aiPrompt: string | null })[]>();
    expect(list.find((entry) => entry.id === ai?.id)?.aiPrompt).toBe('something calm');
    expect(list.find((entry) => entry.id === mine.id)?.aiPrompt).toBeNull();
  });

  it('keeps songs in the order they were added and reorders them', async () => {
    const { id } = (await create(ada, { name: 'Ordered' })).json<PlaylistBody>();
    for (const songId of [songIds[2], songIds[0], songIds[1]]) {
      expect((await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songId })).statusCode).toBe(200);
    }
    const order = async () => (await call(ada, 'GET', `/api/playlists/${id}`)).json<PlaylistBody>().songs.map((s) => s.id);
    expect(await order()).toEqual([songIds[2], songIds[0], songIds[1]]);

    const reordered = await call(ada, 'PUT', `/api/playlists/${id}/songs`, { songIds: [songIds[0], songIds[1], songIds[2]] });
    expect(reordered.statusCode).toBe(200);
    expect(await order()).toEqual([songIds[0], songIds[1], songIds[2]]);

    // A wrong or partial list changes nothing.
    for (const wrong of [[songIds[0], songIds[1]], [songIds[0], songIds[1], songIds[3]], [songIds[0], songIds[0], songIds[1]], []]) {
      const response = await call(ada, 'PUT', `/api/playlists/${id}/songs`, { songIds: wrong });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'songIds must list every song of the playlist exactly once.' });
    }
    expect((await call(ada, 'PUT', `/api/playlists/${id}/songs`, { songIds: 'nope' })).statusCode).toBe(400);
    expect(await order()).toEqual([songIds[0], songIds[1], songIds[2]]);

    // Appending after a reorder goes to the end.
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { songId: songIds[3] });
    expect(await order()).toEqual([songIds[0], songIds[1], songIds[2], songIds[3]]);
  });

  it('refuses a duplicate song with 409 and an unknown one with 404', async () => {
    const { id } = (await create(ada, { name: 'No Dupes' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    const again = await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This song is already in the playlist.' });
    expect((await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: 999_999 })).statusCode).toBe(404);
    expect((await call(ada, 'POST', `/api/playlists/${id}/songs`, {})).json()).toEqual({ message: 'Please select a song to add' });
  });

  it('removes a song, and a song deleted from the library leaves every playlist', async () => {
    const { id } = (await create(ada, { name: 'Removals' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[1] });
    const removed = await call(ada, 'DELETE', `/api/playlists/${id}/songs/${songIds[0]}`);
    expect(removed.json<PlaylistBody>().songs.map((s) => s.id)).toEqual([songIds[1]]);
    expect((await call(ada, 'DELETE', `/api/playlists/${id}/songs/${songIds[0]}`)).statusCode).toBe(404);

    const db = t.app.encore.platform.database.db;
    const [temp] = await db
      .insert(songs)
      .values({ ownerId: 1, displayName: 'Doomed', fileName: 'd.mp3', fileType: 'audio/mpeg', storageKey: `uploads/1/doomed-${engine}/d.mp3`, size: 1 })
      .returning();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: temp?.id });
    await db.delete(songs).where(eq(songs.id, temp?.id ?? 0));
    const after = (await call(ada, 'GET', `/api/playlists/${id}`)).json<PlaylistBody>();
    expect(after.songs.map((s) => s.id)).toEqual([songIds[1]]);
    expect(
      await db
        .select()
        .from(playlistSongs)
        .where(eq(playlistSongs.songId, temp?.id ?? 0)),
    ).toHaveLength(0);
  });

  it('deleting a playlist keeps its songs in the library', async () => {
    const { id } = (await create(ada, { name: 'Short-lived' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    await call(ada, 'DELETE', `/api/playlists/${id}`);
    const db = t.app.encore.platform.database.db;
    expect(
      await db
        .select()
        .from(songs)
        .where(eq(songs.id, songIds[0] ?? 0)),
    ).toHaveLength(1);
  });

  it("answers 404 to every call on another user's playlist and lists only one's own", async () => {
    const { id } = (await create(ada, { name: 'Private' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    const attempts = [
      call(bob, 'GET', `/api/playlists/${id}`),
      call(bob, 'PUT', `/api/playlists/${id}`, { name: 'Hijacked' }),
      call(bob, 'DELETE', `/api/playlists/${id}`),
      call(bob, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[1] }),
      call(bob, 'PUT', `/api/playlists/${id}/songs`, { songIds: [songIds[0]] }),
      call(bob, 'DELETE', `/api/playlists/${id}/songs/${songIds[0]}`),
      call(bob, 'GET', `/api/playlists/${id}/m3u8`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Playlist not found' });
    }
    expect((await call(bob, 'GET', '/api/playlists')).json<PlaylistBody[]>().map((p) => p.id)).not.toContain(id);
    expect((await call(ada, 'GET', `/api/playlists/${id}`)).json()).toMatchObject({ name: 'Private', songCount: 1 });
  });

  it('validates names and descriptions at and past their limits', async () => {
    expect((await create(ada, { name: '' })).json()).toEqual({ message: 'Please enter a playlist name' });
    expect((await create(ada, { name: '   ' })).json()).toEqual({ message: 'Please enter a playlist name' });
    expect((await create(ada, {})).statusCode).toBe(400);
    expect((await create(ada, { name: 'n'.repeat(100), description: 'd'.repeat(1000) })).statusCode).toBe(201);
    expect((await create(ada, { name: 'n'.repeat(101) })).json()).toEqual({ message: 'The playlist name can be at most 100 characters' });
    expect((await create(ada, { name: 'ok', description: 'd'.repeat(1001) })).json()).toEqual({ message: 'The description can be at most 1000 characters' });
    const { id } = (await create(ada, { name: 'Edit me' })).json<PlaylistBody>();
    expect((await call(ada, 'PUT', `/api/playlists/${id}`, { name: ' ' })).json()).toEqual({ message: 'Please provide a valid name for the playlist' });
    expect((await call(ada, 'GET', '/api/playlists/abc')).json()).toEqual({ message: 'The playlist id must be a whole number from 1 to 2147483647' });
    expect((await t.app.inject({ url: '/api/playlists' })).statusCode).toBe(401);
  });

  it('exports M3U8 with titles, durations and signed stream links that play', async () => {
    const { id } = (await create(ada, { name: 'Export' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[1] });
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[0] });
    const response = await call(ada, 'GET', `/api/playlists/${id}/m3u8`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('audio/x-mpegurl');
    expect(response.headers['content-disposition']).toContain('Export.m3u8');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toBe('#EXTM3U');
    expect(lines).toContain('#EXTINF:61,The Testers - Second Song');
    const urls = lines.filter((line) => line.startsWith('http'));
    expect(urls).toHaveLength(2);
    expect(lines.indexOf('#EXTINF:61,The Testers - Second Song')).toBeLessThan(lines.indexOf('#EXTINF:61,The Testers - First Song'));
    // The link is signed: it names the stored object and carries an expiry and signature.
    expect(urls[0]).toMatch(/^http:\/\/(localhost(:\d+)?|encore\.test)\/api\/storage\/o\/.+sig=/);
  });

  it('shows each song with the caller’s like state', async () => {
    const { id } = (await create(ada, { name: 'Liked' })).json<PlaylistBody>();
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songIds[2] });
    await call(ada, 'POST', `/api/files/${songIds[2]}/like`);
    const body = (await call(ada, 'GET', `/api/playlists/${id}`)).json<PlaylistBody>();
    expect(body.songs[0]).toMatchObject({ id: songIds[2], displayName: 'Third Song', isLiked: true });
  });

  it('gives every song its own position when adds and reorders of one playlist run at once', async () => {
    const db = t.app.encore.platform.database.db;
    const [owner] = await db.select().from(users).where(eq(users.userName, 'ada'));
    const extra = await db
      .insert(songs)
      .values(
        Array.from({ length: 10 }, (_, n) => ({
          ownerId: owner?.id ?? 0,
          displayName: `Crowd ${n}`,
          fileName: `crowd-${n}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/crowd/${n}.mp3`,
          size: 1000,
        })),
      )
      .returning({ id: songs.id });
    const { id } = (await create(ada, { name: 'Crowded' })).json<PlaylistBody>();
    const [first, second, ...rest] = extra.map((row) => row.id);
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: first });
    await call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: second });

    const adds = rest.map((songId) => call(ada, 'POST', `/api/playlists/${id}/songs`, { SongId: songId }));
    // Valid while no add has landed yet; a 400 afterwards, as any stale reorder.
    const reorders = Array.from({ length: 4 }, (_, n) =>
      call(ada, 'PUT', `/api/playlists/${id}/songs`, { songIds: n % 2 ? [first, second] : [second, first] }),
    );
    const added = await Promise.all(adds);
    expect(added.map((response) => response.statusCode)).toEqual(rest.map(() => 200));
    for (const response of await Promise.all(reorders)) expect([200, 400]).toContain(response.statusCode);

    const rows = await db
      .select({ songId: playlistSongs.songId, position: playlistSongs.position })
      .from(playlistSongs)
      .where(eq(playlistSongs.playlistId, id));
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((row) => row.position)).size).toBe(10);
    const shown = (await call(ada, 'GET', `/api/playlists/${id}`)).json<PlaylistBody>().songs.map((song) => song.id);
    expect(new Set(shown)).toEqual(new Set(extra.map((row) => row.id)));
    // Adds append: the songs added at once follow the first two, whatever order those took.
    expect(new Set(shown.slice(2))).toEqual(new Set(rest));
  });
});
