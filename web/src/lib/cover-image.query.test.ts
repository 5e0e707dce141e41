import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { contentDispositionFileName } from './api-client';
import { fetchCoverImage } from './cover-image.query';

describe('fetchCoverImage', () => {
  it('asks extract-image by storage key and size with the bearer token, and answers an object URL', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = vi.fn(
      async () => new Response(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const url = await fetchCoverImage('uploads/1/a b.mp3', 'thumb');
    expect(url).toMatch(/^blob:/);
    const [requested, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(requested).toBe('/api/files/extract-image?fileKey=uploads%2F1%2Fa+b.mp3&size=thumb');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('reads 204, 404 and a non-image answer as "no image"', async () => {
    stubFetch({ 'GET /api/files/extract-image': { status: 204 } });
    await expect(fetchCoverImage('k', 'full')).resolves.toBeNull();
    stubFetch({ 'GET /api/files/extract-image': { status: 404, body: { message: 'No image' } } });
    await expect(fetchCoverImage('k', 'full')).resolves.toBeNull();
    stubFetch({ 'GET /api/files/extract-image': { body: { not: 'an image' } } });
    await expect(fetchCoverImage('k', 'full')).resolves.toBeNull();
  });

  it('fails on a server error, so the query can retry later', async () => {
    stubFetch({ 'GET /api/files/extract-image': { status: 500, body: { message: 'Broken' } } });
    await expect(fetchCoverImage('k', 'full')).rejects.toMatchObject({ status: 500 });
  });
});

describe('contentDispositionFileName', () => {
  it('prefers filename*, then filename, and reads none as null', () => {
    expect(contentDispositionFileName(`attachment; filename="song.mp3"; filename*=UTF-8''%D7%A9%D7%99%D7%A8.mp3`)).toBe('שיר.mp3');
    expect(contentDispositionFileName('attachment; filename="a \\"quoted\\" name.mp3"')).toBe('a "quoted" name.mp3');
    expect(contentDispositionFileName('attachment; filename=plain.ogg')).toBe('plain.ogg');
    expect(contentDispositionFileName('attachment')).toBeNull();
    expect(contentDispositionFileName(null)).toBeNull();
  });
});
