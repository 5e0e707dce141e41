import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipListResponse } from '@encore/common/clips.contract';
import { account, bearer, fetchUrl, startLibraryApp, upload, type LibraryApp } from '../library/library-test-kit.js';
import { buildClipFixtures, createClip, downloadClip, probe, settingsOf, taskIdOf, waitForClip, type ClipFixtures } from './clips-test-kit.js';

/**
 * Song2Clip with STORAGE=s3 against a real S3-protocol server on loopback (s3rver): the media
 * and the video live in the bucket, the video plays from it with Range requests, and deleting
 * the clip empties the bucket of it. The bucket is read with its own S3 client, not Encore's.
 */
let fixtures: ClipFixtures;
let work: string;
let t: LibraryApp;
let bucket: { client: S3Client; name: string };
beforeAll(async () => {
  fixtures = await buildClipFixtures();
  work = await mkdtemp(path.join(tmpdir(), 'encore-clips-s3-'));
  t = await startLibraryApp({ engine: 'pglite', storage: 's3' });
  const storage = t.config.storage;
  if (storage.driver !== 's3') throw new Error('expected S3 storage');
  bucket = {
    name: storage.bucket,
    client: new S3Client({
      region: storage.region,
      endpoint: storage.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
  };
}, 60_000);
afterAll(async () => {
  bucket?.client.destroy();
  await t?.close();
  await rm(fixtures.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<{ key: string; size: number }[]> {
  const listed = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => ({ key: object.Key ?? '', size: object.Size ?? 0 }));
}

describe('Song2Clip on S3 storage', () => {
  it('stores the media and the video in the bucket, plays the video from it with Range requests, and delete removes them', async () => {
    const alice = await account(t, 'alice');
    const { song } = await upload(t, alice, fixtures.song);
    const created = await createClip(t, alice, { settings: settingsOf({}), songUrl: `/music/${song.id}` }, [fixtures.red, fixtures.blue]);
    expect(created.statusCode).toBe(202);
    expect((await keysUnder('clip-media/')).map((object) => object.key)).toEqual([
      expect.stringMatching(/^clip-media\/\d+\/[\w-]+\/0\.png$/),
      expect.stringMatching(/\/1\.png$/),
    ]);

    const status = await waitForClip(t, alice, taskIdOf(created));
    expect(status).toMatchObject({ status: 'done', progress: 100 });
    // The signed URL is the bucket's own: the browser plays from the store, not through Encore.
    const url = new URL(status.video_url as string);
    expect(url.origin).toBe(new URL((t.config.storage as { endpoint: string }).endpoint).origin);
    const videos = await keysUnder('clips/');
    expect(videos).toHaveLength(1);
    const [video] = videos as [{ key: string; size: number }];
    expect(url.pathname).toBe(`/${bucket.name}/${video.key}`);
    expect((await bucket.client.send(new HeadObjectCommand({ Bucket: bucket.name, Key: video.key }))).ContentType).toBe('video/mp4');
    const listed = (await t.app.inject({ url: '/api/clips', headers: bearer(alice) })).json<ClipListResponse>().clips[0];
    expect(listed).toMatchObject({ status: 'done', sizeBytes: video.size });

    const ranged = await fetchUrl(t, status.video_url as string, { headers: { range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.body.length).toBe(100);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${video.size}`);
    expect(ranged.headers['content-type']).toBe('video/mp4');
    const file = await downloadClip(t, status.video_url as string, work, 'clip.mp4');
    const info = await probe(file);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 854, height: 480 });
    expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThan(0.1);
    const download = await fetchUrl(t, listed?.downloadUrl as string, { method: 'HEAD' });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/clips/${status.clip_id}`, headers: bearer(alice) })).statusCode).toBe(204);
    expect(await keysUnder('clips/')).toEqual([]);
    expect(await keysUnder('clip-media/')).toEqual([]);
    expect((await fetchUrl(t, status.video_url as string)).status).toBe(404);
  }, 120_000);
});
