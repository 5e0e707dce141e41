import { describe, expect, it } from 'vitest';
import { coverKeysOf } from './playlist-cover.component';

const song = (id: number, hasCover: boolean) => ({ id, hasCover, s3Key: `songs/${id}.mp3` });

describe('a playlist cover', () => {
  it('takes the first four covers in playlist order, skipping songs without one or unknown', () => {
    const library = [song(1, true), song(2, false), song(3, true), song(4, true), song(5, true), song(6, true)];
    expect(coverKeysOf([6, 2, 9, 1, 3, 4, 5], library)).toEqual(['songs/6.mp3', 'songs/1.mp3', 'songs/3.mp3', 'songs/4.mp3']);
    expect(coverKeysOf([2], library)).toEqual([]);
    expect(coverKeysOf([], library)).toEqual([]);
  });

  it('uses a song that is twice in the playlist once', () => {
    expect(coverKeysOf([1, 1, 3], [song(1, true), song(3, true)])).toEqual(['songs/1.mp3', 'songs/3.mp3']);
  });
});
