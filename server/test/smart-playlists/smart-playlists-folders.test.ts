import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/features/auth/auth.schema.js';
import { songs } from '../../src/features/library/library.schema.js';
import { musicFoldersModule } from '../../src/features/music-folders/music-folders.module.js';
import { account, bearer } from '../library/library-test-kit.js';
import { engines, startTestApp, type TestApp } from '../support/test-app.js';

interface Smart {
  id: number;
  name: string;
  source: string;
  songCount: number;
}
interface Envelope {
  status: 'ok' | 'failed';
  error?: { code: number; message: string };
  playlists?: { playlist: { id: string; name: string; songCount: number; readonly?: boolean }[] };
  playlist?: { id: string; name: string; songCount: number; readonly: boolean; duration: number; entry?: { id: string; title: string }[] };
}

describe.each(engines)('smart playlists of music folders and in Subsonic apps on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  let owner: string;
  let other: string;
  let ownerKey: string;
  let otherKey: string;
  const songIds: number[] = [];

  const scan = async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/music-folders/scan', headers: bearer(owner) })).statusCode).toBe(202);
    await t.app.encore.modules.internals(musicFoldersModule).service.idle();
  };
  const keyOf = async (token: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/api-keys', headers: bearer(token), payload: { name: 'Feishin' } })).json<{ key: string }>().key;
  const rest = async (method: string, query: string, key = ownerKey): Promise<Envelope> => {
    const response = await t.app.inject({ url: `/rest/${method}?${query}${query ? '&' : ''}apiKey=${encodeURIComponent(key)}&v=1.16.1&c=test&f=json` });
    expect(response.statusCode).toBe(200);
    return response.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  };
  const smartList = async (token: string) => (await t.app.inject({ url: '/api/smart-playlists', headers: bearer(token) })).json<Smart[]>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'encore-smart-folder-'));
    await writeFile(
      path.join(dir, 'Long jazz.nsp'),
      '// Navidrome smart playlist\n{"name": "Long jazz", "all": [{"is": {"genre": "Jazz"}}, {"gt": {"duration": 300}}], "sort": "-duration"}\n',
    );
    await writeFile(path.join(dir, 'broken.nsp'), '{"all": [{"is": {"mood": "happy"}}]}');
    t = await startTestApp(engine, { MUSIC_FOLDERS: dir, MUSIC_WATCH: 'off', LYRICS_LOOKUP_URL: 'off', TRANSCRIBE_ENGINE: 'off' });
    // The scan at start finds no account yet; the one asked for below imports the files.
    await t.app.encore.modules.internals(musicFoldersModule).service.idle();
    owner = await account(t, 'owner');
    other = await account(t, 'other');
    ownerKey = await keyOf(owner);
    otherKey = await keyOf(other);
    const db = t.app.encore.platform.database.db;
    const [user] = await db.select().from(users).where(eq(users.userName, 'owner'));
    for (const [title, durationSeconds] of [
      ['Blue Train', 640],
      ['So What', 562],
      ['Short jazz', 120],
    ] as const) {
      const [row] = await db
        .insert(songs)
        .values({
          ownerId: user?.id ?? 0,
          displayName: title,
          title,
          genre: 'Jazz',
          durationSeconds,
          fileName: `${title}.mp3`,
          fileType: 'audio/mpeg',
          storageKey: `uploads/${title}`,
          size: 1,
        })
        .returning({ id: songs.id });
      songIds.push(row?.id ?? 0);
    }
    await scan();
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("makes a folder's .nsp files the first account's smart playlists, read-only, follows their changes and reports a bad one", async () => {
    // The process takes the scanner's lease at start: the scan asked for may run after the one it was running.
    const folderLists = await vi.waitFor(
      async () => {
        const found = (await smartList(owner)).filter((smart) => smart.source === 'folder');
        expect(found).toEqual([expect.objectContaining({ name: 'Long jazz', songCount: 2 })]);
        return found;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect((await smartList(other)).filter((smart) => smart.source === 'folder')).toEqual([]);
    const id = folderLists[0]?.id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/smart-playlists/${id}`,
      headers: bearer(owner),
      payload: { name: 'x', rules: { all: [{ is: { loved: true } }] } },
    });
    expect(put.statusCode).toBe(403);

    await vi.waitFor(
      async () => {
        const report = (await t.app.inject({ url: '/api/music-folders', headers: bearer(owner) })).json<{ problems: { path: string; reason: string }[] }>();
        expect(report.problems).toContainEqual({ folder: dir, path: 'broken.nsp', reason: expect.stringContaining('Unknown field "mood"') });
      },
      { timeout: 15_000, interval: 50 },
    );

    await writeFile(path.join(dir, 'Long jazz.nsp'), '{"name": "Longer jazz", "all": [{"gt": {"duration": 600}}]}');
    await scan();
    await vi.waitFor(
      async () =>
        expect((await smartList(owner)).filter((smart) => smart.source === 'folder')).toEqual([
          expect.objectContaining({ id, name: 'Longer jazz', songCount: 1 }),
        ]),
      { timeout: 15_000, interval: 50 },
    );
  });

  it('lists smart playlists in getPlaylists with ids of their own, plays them in getPlaylist, and keeps them read-only', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/smart-playlists',
      headers: bearer(owner),
      payload: { name: 'All jazz', rules: { all: [{ is: { genre: 'jazz' } }], sort: 'title' } },
    });
    const smart = created.json<Smart>();
    const listed = (await rest('getPlaylists', '')).playlists?.playlist ?? [];
    expect(listed).toContainEqual(expect.objectContaining({ id: `smart-${smart.id}`, name: 'All jazz', songCount: 3, readonly: true }));

    const played = await rest('getPlaylist', `id=smart-${smart.id}`);
    expect(played.status).toBe('ok');
    expect(played.playlist).toMatchObject({ id: `smart-${smart.id}`, name: 'All jazz', songCount: 3, readonly: true, duration: 640 + 562 + 120 });
    expect(played.playlist?.entry?.map((song) => song.title)).toEqual(['Blue Train', 'Short jazz', 'So What']);

    expect((await rest('updatePlaylist', `playlistId=smart-${smart.id}&name=x`)).error?.code).toBe(50);
    expect((await rest('deletePlaylist', `id=smart-${smart.id}`)).error?.code).toBe(50);
    expect((await rest('getPlaylist', `id=smart-${smart.id}`, otherKey)).error?.code).toBe(70);
    expect((await rest('getPlaylist', 'id=smart-abc')).error?.code).toBe(70);

    const xml = await t.app.inject({ url: `/rest/getPlaylist?id=smart-${smart.id}&apiKey=${encodeURIComponent(ownerKey)}&v=1.16.1&c=test` });
    expect(xml.body).toContain(`<playlist id="smart-${smart.id}" name="All jazz"`);
    expect(xml.body).toContain('readonly="true"');
  });

  it('deletes a smart playlist whose .nsp file is gone only after a scan of the whole folder, also when it was the last one', async () => {
    const folderNames = async () => (await smartList(owner)).filter((smart) => smart.source === 'folder').map((smart) => smart.name);
    await vi.waitFor(async () => expect(await folderNames()).toEqual(['Longer jazz']), { timeout: 15_000, interval: 50 });
    const { scanner } = t.app.encore.modules.internals(musicFoldersModule);
    await mkdir(path.join(dir, 'Sub'));
    await writeFile(path.join(dir, 'Sub', 'Short.nsp'), '{"name": "Short", "all": [{"lt": {"duration": 200}}]}');
    // The watcher's scan of one part sees only that part's files: the root's .nsp is not gone.
    await scanner.scan({ scopes: [{ folder: dir, path: 'Sub', recursive: true }] });
    expect((await folderNames()).sort()).toEqual(['Longer jazz', 'Short']);
    // Every .nsp file deleted: the scan of the whole folder finds none, and both playlists go.
    await rm(path.join(dir, 'Long jazz.nsp'));
    await rm(path.join(dir, 'broken.nsp'));
    await rm(path.join(dir, 'Sub'), { recursive: true });
    await scanner.scan({ scopes: [{ folder: dir, path: 'Sub', recursive: true }] });
    expect((await folderNames()).sort()).toEqual(['Longer jazz', 'Short']);
    await scan();
    await vi.waitFor(async () => expect(await folderNames()).toEqual([]), { timeout: 15_000, interval: 50 });
  });
});
