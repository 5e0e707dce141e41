import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { processJobs } from '../../src/modules/process-jobs.js';
import { receiptKeyFor } from '../../src/features/library/upload-key.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { account, bearer, completeUpload, fetchUrl, presign, setups, songRows, startLibraryApp, upload, type LibraryApp } from './library-test-kit.js';
import { libraryModule } from '../../src/features/library/library.module.js';

const HOUR = 3600_000;
const HTML = Buffer.from('<!doctype html><p>replayed</p>');

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/** Issue 8: objects that belong to no song were kept forever; the scheduled clean-up removes them after a grace period. */
describe.each(setups)('storage clean-up on $engine with $storage storage', (setup) => {
  let t: LibraryApp;
  let token: string;
  beforeAll(async () => {
    t = await startLibraryApp(setup);
    token = await account(t, 'tidy');
  });
  afterAll(async () => t?.close());

  const storage = () => t.app.encore.platform.storage;
  const cleanup = () => t.app.encore.modules.internals(libraryModule).storageCleanup;
  const exists = async (key: string) => (await storage().stat(key)) !== null;
  const putTo = (url: string, body: Buffer) => fetchUrl(t, url, { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body });

  it('removes uploads never completed, replays after a delete and unrecorded song and cover objects, and nothing a song uses', async () => {
    const kept = await upload(t, token, fixtures.taggedMp3);
    expect(kept.complete.statusCode).toBe(201);
    const [keptRow] = (await songRows(t)).filter((row) => row.id === kept.song.id);

    const abandoned = await presign(t, token, 'abandoned.mp3', 'audio/mpeg');
    expect((await putTo(abandoned.url, await fs.readFile(fixtures.plainMp3))).status).toBe(200);

    const deleted = await upload(t, token, fixtures.plainMp3, { fileName: 'deleted.mp3' });
    await t.app.inject({ method: 'DELETE', url: `/api/files/${deleted.song.id}`, headers: bearer(token) });
    const replay = await presign(t, token, 'replayed.mp3', 'audio/mpeg');
    expect((await putTo(replay.url, await fs.readFile(fixtures.plainMp3))).status).toBe(200);
    const replayed = await completeUpload(t, token, { fileName: 'replayed.mp3', s3key: replay.key });
    const replayedSong = replayed.json<Song>();
    await t.app.inject({ method: 'DELETE', url: `/api/files/${replayedSong.id}`, headers: bearer(token) });
    // Encore's own PUT route refuses the replay of a completed upload's link; S3 takes it as a staged upload.
    expect((await putTo(replay.url, HTML)).status).toBe(setup.storage === 's3' ? 200 : 409);

    // An ingest that died between moving the upload and recording the song.
    const orphanSong = `songs/0f8fad5b-d9cb-469f-a165-70867728950e/orphan.mp3`;
    const orphanCover = `covers/0f8fad5b-d9cb-469f-a165-70867728950e/full.jpg`;
    await storage().put(orphanSong, Buffer.from('audio'));
    await storage().put(orphanCover, Buffer.from('jpeg'));

    // The thumbnail is made (and stored) when first asked for.
    const thumb = await t.app.inject({ url: `/api/files/extract-image?fileKey=${encodeURIComponent(kept.song.s3Key)}&size=thumb`, headers: bearer(token) });
    expect(thumb.statusCode).toBe(200);

    // The receipts that spent the completed uploads' links are kept as long as a link works.
    const receipts = [kept.key, deleted.key, replay.key].map((key) => receiptKeyFor(key) as string);
    const orphans = [abandoned.key, ...(setup.storage === 's3' ? [replay.key] : []), orphanSong, orphanCover, ...receipts];
    const used = [kept.song.s3Key, keptRow?.coverKey, keptRow?.coverThumbKey].filter((key): key is string => Boolean(key));
    expect(used).toHaveLength(3);
    for (const key of [...orphans, ...used]) expect(await exists(key), key).toBe(true);

    // Within the grace period (an upload may still be completed, an ingest still running) nothing goes.
    expect((await cleanup().run(new Date(Date.now() + 5 * 60_000))).removed).toEqual([]);
    const { removed } = await cleanup().run(new Date(Date.now() + 3 * HOUR));
    expect(removed.sort()).toEqual([...orphans].sort());
    for (const key of orphans) expect(await exists(key), key).toBe(false);
    for (const key of used) expect(await exists(key), key).toBe(true);
    const download = await t.app.inject({ url: `/api/files/${kept.song.id}/download`, headers: bearer(token) });
    expect(download.rawPayload.equals(await fs.readFile(fixtures.taggedMp3))).toBe(true);
  });

  it('keeps the objects of songs recorded under their upload key before song keys existed', async () => {
    const { key } = await presign(t, token, 'legacy.mp3', 'audio/mpeg');
    await storage().put(key, await fs.readFile(fixtures.plainMp3), { contentType: 'audio/mpeg' });
    const [user] = await t.app.encore.platform.database.db.select().from(users).where(eq(users.userName, 'tidy'));
    const { songs } = await import('../../src/features/library/library.schema.js');
    await t.app.encore.platform.database.db
      .insert(songs)
      .values({ ownerId: user?.id ?? 0, displayName: 'Legacy', fileName: 'legacy.mp3', fileType: 'audio/mpeg', storageKey: key, size: 1 });
    await cleanup().run(new Date(Date.now() + 3 * HOUR));
    expect(await exists(key)).toBe(true);
  });

  if (setup.storage === 'local') {
    it('removes old temp files of interrupted writes when the maintenance job runs', async () => {
      const dir = path.join(t.mediaDir, 'covers', 'tmp-test');
      await fs.mkdir(dir, { recursive: true });
      const stale = path.join(dir, '.0123456789abcdef.tmp');
      const fresh = path.join(dir, '.00112233445566ff.tmp');
      await fs.writeFile(stale, 'x');
      await fs.writeFile(fresh, 'x');
      await fs.utimes(stale, new Date(Date.now() - HOUR), new Date(Date.now() - HOUR));
      const cleanup = processJobs(t.app.encore.platform, t.app.encore.modules).find((job) => job.name === 'maintenance.cleanup');
      await cleanup?.handler({}, { jobId: 'test', signal: new AbortController().signal, task: undefined, progress: async () => undefined });
      await expect(fs.stat(stale)).rejects.toThrow();
      expect((await fs.stat(fresh)).isFile()).toBe(true);
    });
  }
});
