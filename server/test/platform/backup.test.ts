import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Song } from '@encore/common/library.contract';
import type { ClipListResponse } from '@encore/common/clips.contract';
import { buildApp } from '../../src/app.js';
import { runBackupCommand, runRestoreCommand } from '../../src/cli/backup.command.js';
import { loadConfig, type Config } from '../../src/config.js';
import { readBackupManifest } from '../../src/platform/backup/restore.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { engines, freshPostgresDatabase, type TestApp } from '../support/test-app.js';
import { account, bearer, fetchUrl, upload } from '../library/library-test-kit.js';
import { buildClipFixtures, createClip, settingsOf, taskIdOf, waitForClip, type ClipFixtures } from '../clips/clips-test-kit.js';

/**
 * `backup <file>` while Encore serves (uploads and a render running), `restore <file>` into a
 * new data folder, and Encore started on it: everything the backup saw is there and plays.
 */
let audio: AudioFixtures;
let pictures: ClipFixtures;
beforeAll(async () => {
  audio = await buildAudioFixtures();
  pictures = await buildClipFixtures();
}, 120_000);
afterAll(async () => {
  await audio.cleanup();
  await rm(pictures.dir, { recursive: true, force: true });
});

function configFor(dataDir: string, databaseUrl: string | undefined): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://encore.test',
    ANALYSIS_BACKFILL: 'false',
    ANALYSIS_ON_INGEST: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}

async function runCommand(run: typeof runBackupCommand, args: string[], config: Config) {
  const stdout = capture();
  const stderr = capture();
  const code = await run(args, { config, stdout: stdout.stream, stderr: stderr.stream, cwd: tmpdir() });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const asTestApp = (app: FastifyInstance, config: Config): TestApp => ({ app, config, dataDir: config.dataDir, close: () => app.close() });

describe.each(engines)('backup and restore on %s', (engine) => {
  let work: string;
  let postgres: { url: string; drop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'encore-backup-'));
    postgres = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
  });
  afterAll(async () => {
    await postgres?.drop();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up while uploads and a render run, restores into an empty folder, and every song, playlist, like, lyric and clip is there and plays', async () => {
    const config = configFor(path.join(work, 'data'), postgres?.url);
    const original = asTestApp(await buildApp(config), config);
    let restored: TestApp | undefined;
    try {
      const alice = await account(original, 'alice');
      const first = (await upload(original, alice, audio.plainMp3)).song;
      const second = (await upload(original, alice, audio.taggedMp3)).song;
      const playlist = (
        await original.app.inject({ method: 'POST', url: '/api/playlists', headers: bearer(alice), payload: { name: 'Kept', description: 'both songs' } })
      ).json<{ id: number }>();
      for (const song of [first, second])
        expect(
          (await original.app.inject({ method: 'POST', url: `/api/playlists/${playlist.id}/songs`, headers: bearer(alice), payload: { SongId: song.id } }))
            .statusCode,
        ).toBe(200);
      expect((await original.app.inject({ method: 'POST', url: `/api/files/${second.id}/like`, headers: bearer(alice) })).statusCode).toBe(200);
      const lyrics = await original.app.inject({
        method: 'PUT',
        url: `/api/files/${first.id}/lyrics`,
        headers: bearer(alice),
        payload: { transcript: 'Backed up line\nSecond backed up line' },
      });
      expect(lyrics.statusCode).toBe(200);
      const clipTask = taskIdOf(await createClip(original, alice, { settings: settingsOf({}), songUrl: `/music/${first.id}` }, [pictures.green]));
      expect((await waitForClip(original, alice, clipTask)).status).toBe('done');

      // The backup runs while more uploads and another render are under way.
      const busy = Promise.all([
        upload(original, alice, audio.opus),
        upload(original, alice, audio.flac),
        createClip(original, alice, { settings: settingsOf({}), songUrl: `/music/${second.id}` }, [pictures.green]),
      ]);
      const file = path.join(work, 'encore-backup.tar.gz');
      const backup = await runCommand(runBackupCommand, [file], config);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      await busy;
      const manifest = await readBackupManifest(file);
      expect(manifest.covers).toEqual({ database: engine === 'pglite', storage: true, secrets: true });
      if (engine === 'postgres') expect(backup.stdout).toMatch(/PostgreSQL \(DATABASE_URL\): this archive does not hold it\. Back it up with pg_dump/);
      else expect(backup.stdout).toMatch(/Backup written to .*the embedded database, the stored files, the secret/);
      // A second backup never overwrites the first.
      expect((await runCommand(runBackupCommand, [file], config)).code).toBe(1);
      await original.close();

      // Restore: refused into a folder that is not empty, done into a new one.
      const refused = await runCommand(runRestoreCommand, [file], config);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is not empty: restore only into an empty data folder/);
      const newConfig = configFor(path.join(work, 'restored'), postgres?.url);
      const restore = await runCommand(runRestoreCommand, [file], newConfig);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      restored = asTestApp(await buildApp(newConfig), newConfig);

      // The old session still works (the secret came back), and so does the password.
      const songs = (await restored.app.inject({ url: '/api/files?limit=200', headers: bearer(alice) })).json<Song[]>();
      expect(songs.map((song) => song.id)).toEqual(expect.arrayContaining([first.id, second.id]));
      const signIn = await restored.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { userName: 'alice', password: 'library password 1' } });
      expect(signIn.statusCode).toBe(200);
      // Every song the restored library lists plays, byte for byte the same as uploaded.
      const uploaded = new Map([
        [first.id, audio.plainMp3],
        [second.id, audio.taggedMp3],
      ]);
      // On PostgreSQL the database is not in the archive (it stays the live one): a song whose
      // upload finished while the backup ran may be listed with its file not in the archive.
      // What was stored before the backup began must all be there.
      const mustPlay = engine === 'pglite' ? songs : songs.filter((song) => uploaded.has(song.id));
      for (const song of mustPlay) {
        const play = await restored.app.inject({ url: `/api/files/${song.id}/play`, headers: bearer(alice) });
        expect(play.statusCode).toBe(200);
        const fetched = await fetchUrl(restored, play.json<{ url: string }>().url);
        expect(fetched.status).toBe(200);
        const original = uploaded.get(song.id);
        if (original) expect(fetched.body.equals(await readFile(original))).toBe(true);
        else expect(fetched.body.length).toBe(song.size);
      }
      const kept = (await restored.app.inject({ url: `/api/playlists/${playlist.id}`, headers: bearer(alice) })).json<{ songs: { id: number }[] }>();
      expect(kept.songs.map((song) => song.id)).toEqual([first.id, second.id]);
      expect(songs.find((song) => song.id === second.id)?.isLiked).toBe(true);
      const restoredLyrics = await restored.app.inject({ url: `/api/files/${first.id}/lyrics`, headers: bearer(alice) });
      expect(restoredLyrics.json<{ text: string }>().text).toBe('Backed up line\nSecond backed up line');
      const clips = (await restored.app.inject({ url: '/api/clips', headers: bearer(alice) })).json<ClipListResponse>().clips;
      const clip = clips.find((entry) => entry.taskId === clipTask);
      expect(clip?.status).toBe('done');
      const video = await restored.app.inject({ url: `/api/clips/clip-status/${clipTask}`, headers: bearer(alice) });
      const videoUrl = video.json<{ video_url: string }>().video_url;
      const fetchedVideo = await fetchUrl(restored, videoUrl);
      expect(fetchedVideo.status).toBe(200);
      expect(fetchedVideo.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    } finally {
      await restored?.close();
      await original.app.close().catch(() => undefined);
    }
  }, 300_000);

  it('refuses a file that is not a backup and leaves the folder empty', async () => {
    const bogus = path.join(work, 'not-a-backup.tar.gz');
    await writeFile(bogus, 'hello');
    const config = configFor(path.join(work, `empty-${engine}`), postgres?.url);
    const result = await runCommand(runRestoreCommand, [bogus], config);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Restore failed: /);
    const usage = await runCommand(runBackupCommand, [], config);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Usage: encore backup <file.tar.gz>/);
  });
});
