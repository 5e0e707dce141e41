import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipListResponse } from '@encore/common/clips.contract';
import type { SharedSong, Song, SongDetail } from '@encore/common/library.contract';
import type { PlayQueue } from '@encore/common/listening.contract';
import type { LyricsModel } from '@encore/common/lyrics.contract';
import type { Playlist, PlaylistSummary } from '@encore/common/playlists.contract';
import { hashOneTimeToken } from '../../src/platform/crypto/one-time-token.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { MigrationError } from '../../src/platform/db/migrations.js';
import { bearer, fetchUrl } from '../library/library-test-kit.js';
import { MIGRATIONS } from '../support/migration-steps.js';
import { freshPostgresDatabase, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 40: a data folder made by an older Encore (commit and contents in old-data.json; remade
 * by make-old-data.sh beside it) is upgraded by today's start. A start whose migrations fail
 * first says which failed and leaves the folder as it was; today's start then applies every
 * migration and everything the old version stored is still there.
 */
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/upgrade');

interface OldData {
  commit: string;
  lastMigration: string;
  users: { userName: string; email: string; password: string }[];
  songs: { id: number; fileName: string; owner: string; title: string; artist: string; album: string; seconds: number; size: number; sha256: string }[];
  playlist: { id: number; owner: string; name: string; description: string; songIds: number[] };
  like: { userName: string; songId: number };
  lyrics: { songId: number; transcript: string; language: string };
  share: { token: string; songId: number; sharedBy: string };
  playQueue: { userName: string; songIds: number[]; current: number; positionSeconds: number };
  clip: { id: number; owner: string; songId: number; sizeBytes: number; durationSeconds: number };
}

const old = JSON.parse(readFileSync(path.join(FIXTURE, 'old-data.json'), 'utf8')) as OldData;
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
};
const oldMigrations = journal.entries.findIndex((entry) => entry.tag === old.lastMigration) + 1;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** What a migration fails on, after statements that would change the schema and the data. */
const BROKEN_MIGRATION = [
  'ALTER TABLE "songs" ADD COLUMN "upgrade_probe" text;',
  `UPDATE "songs" SET "upgrade_probe" = 'half applied';`,
  'ALTER TABLE "no_such_table" ADD COLUMN "x" text;',
].join('\n--> statement-breakpoint\n');

/** Today's migrations and one more that fails, in a copy under `root`. */
async function withBrokenMigration(root: string): Promise<{ folder: string; tag: string }> {
  const folder = path.join(root, 'migrations');
  await fs.cp(MIGRATIONS, folder, { recursive: true });
  const last = journal.entries.at(-1);
  if (!last) throw new Error('no migrations');
  const tag = `${String(last.idx + 1).padStart(4, '0')}_fails_on_purpose`;
  await fs.writeFile(path.join(folder, `${tag}.sql`), BROKEN_MIGRATION);
  const entries = [...journal.entries, { ...last, idx: last.idx + 1, when: last.when + 1, tag }];
  await fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return { folder, tag };
}

describe('upgrading a data folder of an older Encore (PGlite)', () => {
  let root: string;
  let dataDir: string;
  let brokenMigrations: string;
  let brokenTag: string;
  let t: TestApp | undefined;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    expect(oldMigrations, `${old.lastMigration} is in today's journal`).toBeGreaterThan(0);
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-upgrade-'));
    dataDir = path.join(root, 'data');
    await fs.mkdir(dataDir);
    await promisify(execFile)('tar', ['-xJf', path.join(FIXTURE, 'old-data.tar.xz'), '-C', dataDir]);
    ({ folder: brokenMigrations, tag: brokenTag } = await withBrokenMigration(root));
  });

  afterAll(async () => {
    await t?.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  const app = (): TestApp => {
    if (!t) throw new Error("today's Encore did not start");
    return t;
  };
  const get = (url: string, userName: string) => app().app.inject({ url, headers: bearer(tokens.get(userName) ?? '') });

  it('a start whose migration fails says which and why, and leaves the folder as the old version left it', async () => {
    const start = startTestApp('pglite', { DATA_DIR: dataDir }, { migrationsFolder: brokenMigrations });
    const error = await start.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(MigrationError);
    const pending = journal.entries.length + 1 - oldMigrations;
    expect((error as Error).message).toBe(
      `The database could not be upgraded: migration ${brokenTag} failed: relation "no_such_table" does not exist. ` +
        `None of the ${pending} pending migrations (${journal.entries[oldMigrations]?.tag} to ${brokenTag}) was applied: ` +
        'they run in one transaction, which was rolled back, and the database is as it was before this start.',
    );

    // The folder opens (the failed start closed it) with the old schema and every row.
    const client = await PGlite.create(path.join(dataDir, 'db'), { extensions: { pg_trgm, unaccent } });
    try {
      const applied = await client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at');
      expect(applied.rows).toHaveLength(oldMigrations);
      const probe = await client.query("select 1 from information_schema.columns where table_name = 'songs' and column_name = 'upgrade_probe'");
      expect(probe.rows).toHaveLength(0);
      const counts = await client.query<{ users: number; songs: number; playlist_songs: number; likes: number; share_links: number }>(
        `select (select count(*)::int from users) as users, (select count(*)::int from songs) as songs,
                (select count(*)::int from playlist_songs) as playlist_songs, (select count(*)::int from song_likes) as likes,
                (select count(*)::int from share_links) as share_links`,
      );
      expect(counts.rows[0]).toEqual({ users: 2, songs: old.songs.length, playlist_songs: old.playlist.songIds.length, likes: 1, share_links: 1 });
    } finally {
      await client.close();
    }
  });

  it("today's start applies every migration of the journal", async () => {
    t = await startTestApp('pglite', { DATA_DIR: dataDir });
    const applied = await app().app.encore.platform.database.executor.executeSql(
      'select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at',
    );
    const expected = await Promise.all(
      journal.entries.map(async (entry) => ({ hash: sha256(await fs.readFile(path.join(MIGRATIONS, `${entry.tag}.sql`))), created_at: String(entry.when) })),
    );
    expect(applied.rows).toEqual(expected);
  });

  it('both accounts sign in with their passwords', async () => {
    for (const user of old.users) {
      const response = await app().app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: user.userName, password: user.password } });
      expect(response.statusCode, user.userName).toBe(200);
      const body = response.json<{ token: string; user: { userName: string; email: string } }>();
      expect(body.user).toMatchObject({ userName: user.userName, email: user.email });
      tokens.set(user.userName, body.token);
    }
    const wrong = await app().app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'ann', password: 'not the password' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('every song is listed and streams the bytes that were uploaded', async () => {
    const list = await get('/api/files', 'bob');
    expect(list.statusCode).toBe(200);
    // Newest first.
    expect(
      list.json<Song[]>().map((song) => ({ id: song.id, title: song.title, artist: song.artist, album: song.album, uploadedBy: song.uploadedBy })),
    ).toEqual(old.songs.map((song) => ({ id: song.id, title: song.title, artist: song.artist, album: song.album, uploadedBy: song.owner })).reverse());
    // Found by a word of its title, and with a typo (the search tables the old migrations filled).
    for (const query of ['lullaby', 'lulaby'])
      expect(
        (await get(`/api/files?q=${query}`, 'ann')).json<Song[]>().map((song) => song.id),
        query,
      ).toEqual([3]);
    for (const song of old.songs) {
      const detail = (await get(`/api/files/${song.id}`, song.owner)).json<SongDetail>();
      expect(detail).toMatchObject({ fileName: song.fileName, size: song.size, isOwner: true });
      expect(detail.durationSeconds).toBeCloseTo(song.seconds, 0);
      const play = await get(`/api/files/${song.id}/play`, 'bob');
      expect(play.statusCode).toBe(200);
      const stream = await fetchUrl(app(), play.json<{ url: string }>().url);
      expect(stream.status).toBe(200);
      expect(sha256(stream.body), song.fileName).toBe(song.sha256);
    }
  });

  it('the playlist keeps its songs in order, the like and the play queue are kept', async () => {
    const playlists = (await get('/api/playlists', old.playlist.owner)).json<PlaylistSummary[]>();
    expect(playlists.map((playlist) => ({ id: playlist.id, name: playlist.name, description: playlist.description }))).toEqual([
      { id: old.playlist.id, name: old.playlist.name, description: old.playlist.description },
    ]);
    const playlist = (await get(`/api/playlists/${old.playlist.id}`, old.playlist.owner)).json<Playlist>();
    expect(playlist.songs.map((song) => song.id)).toEqual(old.playlist.songIds);

    const liked = (await get('/api/files?favorites=true', old.like.userName)).json<Song[]>();
    expect(liked.map((song) => song.id)).toEqual([old.like.songId]);
    const others = old.users.find((user) => user.userName !== old.like.userName)?.userName ?? '';
    expect((await get('/api/files?favorites=true', others)).json<Song[]>()).toEqual([]);

    const queue = (await get('/api/player/queue', old.playQueue.userName)).json<PlayQueue>();
    expect(queue).toMatchObject({ songIds: old.playQueue.songIds, current: old.playQueue.current, positionSeconds: old.playQueue.positionSeconds });
  });

  it('the lyrics keep their text, timed lines and language', async () => {
    const lyrics = (await get(`/api/files/${old.lyrics.songId}/lyrics`, 'bob')).json<LyricsModel>();
    expect(lyrics).toMatchObject({ hasLyrics: true, text: 'Morning light on the old road\nEverything we kept is here', language: old.lyrics.language });
    expect(lyrics.lines.map((line) => [line.text, line.startTime])).toEqual([
      ['Morning light on the old road', 0.5],
      ['Everything we kept is here', 2],
    ]);
  });

  it('the share link still opens its song', async () => {
    // The old version's link lives 30 days from the fixture's making: moved forward so that the
    // public page answers whenever this runs (the token and its song are the old version's).
    const moved = await app().app.encore.platform.database.executor.executeSql(
      "update share_links set expires_at = now() + interval '1 day' where token_hash = $1 returning song_id",
      [hashOneTimeToken(old.share.token)],
    );
    expect(moved.rows).toEqual([{ song_id: old.share.songId }]);
    const response = await app().app.inject({ url: `/api/share/${old.share.token}` });
    expect(response.statusCode).toBe(200);
    const shared = response.json<SharedSong>();
    const song = old.songs.find((candidate) => candidate.id === old.share.songId);
    const listed = (await get(`/api/files/${old.share.songId}`, old.share.sharedBy)).json<SongDetail>();
    expect(shared).toMatchObject({ displayName: listed.displayName, artist: song?.artist, album: song?.album, sharedBy: old.share.sharedBy });
    const stream = await fetchUrl(app(), shared.streamUrl);
    expect(sha256(stream.body)).toBe(song?.sha256);
  });

  it('the rendered clip is listed and plays', async () => {
    const { clips } = (await get('/api/clips', old.clip.owner)).json<ClipListResponse>();
    expect(clips.map((clip) => ({ id: clip.id, songId: clip.songId, status: clip.status, sizeBytes: clip.sizeBytes }))).toEqual([
      { id: old.clip.id, songId: old.clip.songId, status: 'done', sizeBytes: old.clip.sizeBytes },
    ]);
    const video = await app().app.inject({ url: clips[0]?.videoUrl ?? '', headers: bearer(tokens.get(old.clip.owner) ?? '') });
    expect(video.statusCode).toBe(200);
    expect(video.rawPayload.length).toBe(old.clip.sizeBytes);
  });
});

describe.skipIf(!process.env['TEST_DATABASE_URL'])('a migration that fails on PostgreSQL', () => {
  it('stops the start with its name and leaves the database as it was', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-upgrade-'));
    const postgres = await freshPostgresDatabase();
    try {
      const { folder, tag } = await withBrokenMigration(root);
      const error = await openDatabase({ url: postgres.url, pgliteDir: undefined, migrationsFolder: folder }).then(
        async (database) => database.close(),
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toBe(
        `The database could not be upgraded: migration ${tag} failed: relation "no_such_table" does not exist. ` +
          `The pending migration ${tag} was not applied: it runs in a transaction, which was rolled back, and the database is as it was before this start.`,
      );
      // The failed start closed its connections.
      const admin = new pg.Client({ connectionString: process.env['TEST_DATABASE_URL'] });
      await admin.connect();
      try {
        const connections = async () =>
          (
            await admin.query<{ count: number }>('select count(*)::int as count from pg_stat_activity where datname = $1', [
              new URL(postgres.url).pathname.slice(1),
            ])
          ).rows[0]?.count;
        await expect.poll(connections).toBe(0);
      } finally {
        await admin.end();
      }
      const database = await openDatabase({ url: postgres.url, pgliteDir: undefined });
      try {
        const applied = await database.executor.executeSql('select count(*)::int as count from drizzle.__drizzle_migrations');
        expect(applied.rows).toEqual([{ count: journal.entries.length }]);
        const probe = await database.executor.executeSql(
          "select 1 from information_schema.columns where table_name = 'songs' and column_name = 'upgrade_probe'",
        );
        expect(probe.rows).toHaveLength(0);
      } finally {
        await database.close();
      }
    } finally {
      await postgres.drop();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
