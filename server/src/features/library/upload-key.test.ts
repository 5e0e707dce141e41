import { describe, expect, it } from 'vitest';
import { nameWithoutExtension, newUploadKey, songKeyAtEndOf, songKeyFor, uploaderOf } from './upload-key.js';
import { safeFileName } from '../../platform/storage/safe-file-name.js';
import { assertValidKey } from '../../platform/storage/storage-key.js';

describe('upload keys', () => {
  it('name the uploader, and only well-formed keys do', () => {
    const key = newUploadKey(42, 'Song.mp3');
    expect(key).toMatch(/^uploads\/42\/[0-9a-f-]{36}\/Song\.mp3$/);
    expect(uploaderOf(key)).toBe(42);
    expect(uploaderOf('uploads/42/not-a-uuid/Song.mp3')).toBeUndefined();
    expect(uploaderOf(`${key}/extra`)).toBeUndefined();
    expect(uploaderOf('covers/42/x.jpg')).toBeUndefined();
  });

  it('map an upload key to its song key, outside uploads/, with the same uuid and name', () => {
    const key = newUploadKey(42, 'Song.mp3');
    const uuid = key.split('/')[2];
    expect(songKeyFor(key)).toBe(`songs/${uuid}/Song.mp3`);
    expect(songKeyFor('uploads/42/not-a-uuid/Song.mp3')).toBeUndefined();
    expect(songKeyFor(`songs/${uuid}/Song.mp3`)).toBeUndefined();
  });

  it('are found at the end of any storage URL path, song keys and the upload keys of older songs alike', () => {
    const uploadKey = newUploadKey(42, 'Song (live).mp3');
    const songKey = songKeyFor(uploadKey) ?? '';
    for (const key of [songKey, uploadKey]) {
      expect(songKeyAtEndOf(key)).toBe(key);
      expect(songKeyAtEndOf(`/api/storage/o/${key}`)).toBe(key);
      expect(songKeyAtEndOf(`/my-bucket/${key}`)).toBe(key);
    }
    const uuid = songKey.split('/')[1];
    for (const path of [
      `/covers/${uuid}/Song.jpg`,
      `/songs/${uuid}`,
      `/songs/${uuid}/a/b.mp3`,
      `/xsongs/${uuid}/Song.mp3`,
      `/uploads/x/${uuid}/Song.mp3`,
      '/songs/not-a-uuid/Song.mp3',
    ]) {
      expect(songKeyAtEndOf(path), path).toBeUndefined();
    }
  });

  it('make any file name safe for storage, keeping the extension', () => {
    expect(safeFileName('Café – Ünïcode ♪.mp3')).toBe('Cafe_Unicode.mp3');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Music\\.hidden.flac')).toBe('hidden.flac');
    expect(safeFileName('♪♪♪.ogg')).toBe('audio.ogg');
    expect(safeFileName('')).toBe('audio');
    const long = safeFileName(`${'a'.repeat(300)}.m4a`);
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('.m4a')).toBe(true);
    for (const name of ['Café – Ünïcode ♪.mp3', '../../etc/passwd', '.hidden', '...', 'a"b<c>|d?.mp3', 'x'.repeat(500)]) {
      expect(() => assertValidKey(newUploadKey(1, name)), name).not.toThrow();
    }
  });

  it('drop the extension for display', () => {
    expect(nameWithoutExtension('My Demo.final.mp3')).toBe('My Demo.final');
    expect(nameWithoutExtension('noext')).toBe('noext');
    expect(nameWithoutExtension('.mp3')).toBe('.mp3');
  });
});
