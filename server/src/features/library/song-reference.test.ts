import { describe, expect, it } from 'vitest';
import { songReferenceFromUrl } from './song-reference.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('songReferenceFromUrl', () => {
  it('reads the song id of a song page or API path on any host', () => {
    expect(songReferenceFromUrl('http://localhost:5173/music/12')).toEqual({ songId: 12 });
    expect(songReferenceFromUrl('/music/7/')).toEqual({ songId: 7 });
    expect(songReferenceFromUrl('https://music.example.org/music/3?autoplay=1#top')).toEqual({ songId: 3 });
    expect(songReferenceFromUrl('/api/files/9/play')).toEqual({ songId: 9 });
  });

  it('reads the storage key of a play URL, local or S3', () => {
    const key = `uploads/4/${UUID}/Song.mp3`;
    expect(songReferenceFromUrl(`http://encore.test/api/storage/o/${key}?op=get&exp=1&sig=x`)).toEqual({ storageKey: key });
    expect(songReferenceFromUrl(`https://s3.example.com/bucket/${key}?X-Amz-Signature=abc`)).toEqual({ storageKey: key });
    expect(songReferenceFromUrl(`https://bucket.s3.amazonaws.com/uploads/4/${UUID}/Song%28live%29.mp3`)).toEqual({
      storageKey: `uploads/4/${UUID}/Song(live).mp3`,
    });
    const songKey = `songs/${UUID}/Song.mp3`;
    expect(songReferenceFromUrl(`http://encore.test/api/storage/o/${songKey}?op=get&exp=1&sig=x`)).toEqual({ storageKey: songKey });
    expect(songReferenceFromUrl(`https://s3.example.com/bucket/${songKey}?X-Amz-Signature=abc`)).toEqual({ storageKey: songKey });
  });

  it('finds nothing in anything else', () => {
    for (const value of [undefined, '', '   ', 'https://evil.example/', '/music/abc', '/music/1/edit', 'javascript:alert(1)', '/playlists/3', 'http://[bad']) {
      expect(songReferenceFromUrl(value), String(value)).toBeUndefined();
    }
  });
});
