import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '@encore/common/library.contract';
import { eq } from 'drizzle-orm';
import { users } from '../../src/features/auth/auth.schema.js';
import { UPLOAD_LINK_USED } from '../../src/features/library/ingest/ingest.service.js';
import { songKeyFor } from '../../src/features/library/upload-key.js';
import { buildAudioFixtures, type AudioFixtures } from '../support/audio-fixtures.js';
import { account, bearer, completeUpload, fetchUrl, presign, setups, songRows, startLibraryApp, type LibraryApp } from './library-test-kit.js';

const HTML = Buffer.from('<!doctype html><script>alert(document.domain)</script>');

let fixtures: AudioFixtures;
beforeAll(async () => {
  fixtures = await buildAudioFixtures();
});
afterAll(async () => fixtures?.cleanup());

/** Issue 8: a signed upload link keeps working until it expires; replaying it must change nothing a song serves. */
describe.each(setups)('replayed upload links on $engine with $storage storage', (setup) => {
  let t: LibraryApp;
  let token: string;
  beforeAll(async () => {
    t = await startLibraryApp(setup);
    token = await account(t, 'replayer');
  });
  afterAll(async () => t?.close());

  const storage = () => t.app.encore.platform.storage;
  const putTo = (url: string, body: Buffer) => fetchUrl(t, url, { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body });
  /**
   * A replay through a link of a completed upload: Encore's own PUT route refuses it (409); an S3
   * link is the bucket's to answer, and what it takes is only a staged upload nobody serves.
   */
  const expectReplayRefused = async (url: string) => {
    const replay = await putTo(url, HTML);
    if (setup.storage === 's3') return expect(replay.status).toBe(200);
    expect(replay.status).toBe(409);
    expect(JSON.parse(replay.body.toString()) as unknown).toEqual({ message: UPLOAD_LINK_USED });
  };

  async function uploadOnce(name: string): Promise<{ url: string; key: string; song: Song; bytes: Buffer }> {
    const bytes = await fs.readFile(fixtures.plainMp3);
    const { url, key } = await presign(t, token, name, 'audio/mpeg');
    expect((await putTo(url, bytes)).status).toBe(200);
    const complete = await completeUpload(t, token, { fileName: name, s3key: key });
    expect(complete.statusCode).toBe(201);
    return { url, key, song: complete.json<Song>(), bytes };
  }

  async function served(song: Song): Promise<{ download: Buffer; play: Buffer }> {
    const download = await t.app.inject({ url: `/api/files/${song.id}/download`, headers: bearer(token) });
    expect(download.statusCode).toBe(200);
    const { url } = (await t.app.inject({ url: `/api/files/${song.id}/play`, headers: bearer(token) })).json<{ url: string }>();
    const play = await fetchUrl(t, url);
    expect(play.status).toBe(200);
    return { download: download.rawPayload, play: play.body };
  }

  it('serves the checked bytes from a key no upload link names, whatever is PUT to the link afterwards', async () => {
    const { url, key, song, bytes } = await uploadOnce('checked.mp3');
    expect(song.s3Key).toBe(songKeyFor(key));
    expect(song.s3Key.startsWith('songs/')).toBe(true);

    await expectReplayRefused(url);
    const after = await served(song);
    expect(after.download.equals(bytes)).toBe(true);
    expect(after.play.equals(bytes)).toBe(true);

    // A retried upload-complete is still the same song (200), and throws the replayed bytes away.
    const again = await completeUpload(t, token, { fileName: 'checked.mp3', s3key: key });
    expect(again.statusCode).toBe(200);
    expect(again.json<Song>().id).toBe(song.id);
    expect(await storage().stat(key)).toBeNull();
    expect((await served(song)).download.equals(bytes)).toBe(true);
  });

  it('recreates nothing a song serves when the link is replayed after the song is deleted', async () => {
    const { url, key, song } = await uploadOnce('deleted.mp3');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${song.id}`, headers: bearer(token) })).statusCode).toBeLessThan(300);
    await expectReplayRefused(url);
    expect(await storage().stat(song.s3Key)).toBeNull();
    expect((await t.app.inject({ url: `/api/files/${song.id}/download`, headers: bearer(token) })).statusCode).toBe(404);
    expect((await songRows(t)).some((row) => row.storageKey === key || row.storageKey === song.s3Key)).toBe(false);
    // Locally the replay made nothing; on S3 only a staged upload (the scheduled clean-up removes it, see cleanup.test.ts).
    expect(await storage().stat(key)).toEqual(setup.storage === 's3' ? expect.anything() : null);
  });

  it('removes the staged upload a crash left beside its song (after the move linked it, before it deleted the upload) when upload-complete is retried', async () => {
    const bytes = await fs.readFile(fixtures.plainMp3);
    const { url, key } = await presign(t, token, 'crashed.mp3', 'audio/mpeg');
    expect((await putTo(url, bytes)).status).toBe(200);
    // What the killed attempt left: the bytes under the song key, and still under the upload key.
    await storage().put(songKeyFor(key) as string, bytes, { contentType: 'audio/mpeg' });
    const retried = await completeUpload(t, token, { fileName: 'crashed.mp3', s3key: key });
    expect(retried.statusCode).toBe(201);
    expect(await storage().stat(key)).toBeNull();
    expect((await served(retried.json<Song>())).download.equals(bytes)).toBe(true);
  });

  it('keeps playing songs recorded under their upload key before song keys existed', async () => {
    const bytes = await fs.readFile(fixtures.plainMp3);
    const { key } = await presign(t, token, 'legacy.mp3', 'audio/mpeg');
    await storage().put(key, bytes, { contentType: 'audio/mpeg' });
    const [user] = await t.app.encore.platform.database.db.select().from(users).where(eq(users.userName, 'replayer'));
    const { songs } = await import('../../src/features/library/library.schema.js');
    const [row] = await t.app.encore.platform.database.db
      .insert(songs)
      .values({ ownerId: user?.id ?? 0, displayName: 'Legacy', fileName: 'legacy.mp3', fileType: 'audio/mpeg', storageKey: key, size: bytes.length })
      .returning();
    const again = await completeUpload(t, token, { fileName: 'legacy.mp3', s3key: key });
    expect(again.statusCode).toBe(200);
    expect(again.json<Song>().id).toBe(row?.id);
    const download = await t.app.inject({ url: `/api/files/${row?.id}/download`, headers: bearer(token) });
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });
});
