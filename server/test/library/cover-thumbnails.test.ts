import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CoverThumbnails } from '../../src/features/library/cover-thumbnails.js';
import { NotFoundError } from '../../src/platform/errors/app-errors.js';
import type { Logger } from '../../src/platform/logger.js';
import { createStorage } from '../../src/platform/storage/storage.js';
import type { Storage } from '../../src/platform/storage/storage.types.js';

const warnings: string[] = [];
const logger: Logger = { info() {}, debug() {}, error() {}, warn: (_context: unknown, message?: string) => void warnings.push(message ?? '') };

let dir: string;
let storage: Storage;
let cover: Buffer;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'encore-thumbs-'));
  storage = await createStorage({ driver: 'local', root: path.join(dir, 'media') }, { signingSecret: 'x'.repeat(32), logger, maxUploadBytes: 1024 * 1024 });
  // A green 640 x 480 cover: its thumbnail is a green 300 px square.
  cover = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#00c000' } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function storedCover(folder: string, bytes = cover): Promise<{ coverKey: string; thumbKey: string }> {
  const keys = { coverKey: `covers/${folder}/full.jpg`, thumbKey: `covers/${folder}/thumb.jpg` };
  await storage.put(keys.coverKey, bytes, { contentType: 'image/jpeg' });
  return keys;
}

async function read(object: Awaited<ReturnType<CoverThumbnails['open']>>): Promise<Buffer> {
  const bytes = await buffer(object.stream);
  expect(bytes.length).toBe(object.size);
  expect(object.contentType).toBe('image/jpeg');
  return bytes;
}

describe('cover thumbnails, made on first request', () => {
  it('makes a 300 px thumbnail from the stored cover, stores it, and serves the stored one from then on', async () => {
    const { coverKey, thumbKey } = await storedCover('a1');
    const thumbnails = new CoverThumbnails({ storage, logger });
    expect(await storage.stat(thumbKey)).toBeNull();

    const first = await read(await thumbnails.open(coverKey, thumbKey));
    expect(await sharp(first).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 300 });
    const { channels } = await sharp(first).stats();
    expect(channels[1]?.mean).toBeGreaterThan(150);
    expect(await storage.stat(thumbKey)).toEqual({ size: first.length, contentType: 'image/jpeg' });

    // From storage now: no second rendering, the same bytes, even after the cover is gone.
    const put = vi.spyOn(storage, 'put');
    await storage.delete(coverKey);
    try {
      expect((await read(await thumbnails.open(coverKey, thumbKey))).equals(first)).toBe(true);
      expect(put).not.toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
  });

  it('renders once for requests that come together', async () => {
    const { coverKey, thumbKey } = await storedCover('a2');
    const thumbnails = new CoverThumbnails({ storage, logger });
    const put = vi.spyOn(storage, 'put');
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, async () => read(await thumbnails.open(coverKey, thumbKey))));
      expect(put).toHaveBeenCalledTimes(1);
      expect(answers.every((answer) => answer.equals(answers[0] ?? Buffer.alloc(0)))).toBe(true);
    } finally {
      put.mockRestore();
    }
  });

  it('sends a cover that no longer decodes as it is, and stores no thumbnail of it', async () => {
    const damaged = Buffer.from('this was a cover before the disk went bad');
    const { coverKey, thumbKey } = await storedCover('a3', damaged);
    warnings.length = 0;
    const answer = await read(await new CoverThumbnails({ storage, logger }).open(coverKey, thumbKey));
    expect(answer.equals(damaged)).toBe(true);
    expect(await storage.stat(thumbKey)).toBeNull();
    expect(warnings).toEqual(['cover could not be decoded for a thumbnail; the cover is sent instead']);
  });

  it('still answers when the thumbnail cannot be stored, and makes it again next time', async () => {
    const { coverKey, thumbKey } = await storedCover('a4');
    const thumbnails = new CoverThumbnails({ storage, logger });
    const put = vi.spyOn(storage, 'put').mockRejectedValueOnce(new Error('no space left on the device'));
    try {
      const first = await read(await thumbnails.open(coverKey, thumbKey));
      expect(await sharp(first).metadata()).toMatchObject({ width: 300, height: 300 });
      expect(await storage.stat(thumbKey)).toBeNull();
      const second = await read(await thumbnails.open(coverKey, thumbKey));
      expect(second.equals(first)).toBe(true);
      expect(put).toHaveBeenCalledTimes(2);
      expect(await storage.stat(thumbKey)).toEqual({ size: second.length, contentType: 'image/jpeg' });
    } finally {
      put.mockRestore();
    }
  });

  it('answers NotFoundError when neither the thumbnail nor its cover is stored', async () => {
    await expect(new CoverThumbnails({ storage, logger }).open('covers/a5/full.jpg', 'covers/a5/thumb.jpg')).rejects.toBeInstanceOf(NotFoundError);
  });
});
