import { describe, expect, it } from 'vitest';
import { moveItem, orderSongsBy } from './playlist-order';

describe('moveItem', () => {
  it('moves an item down and up', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
  });

  it('clamps the target to the list and ignores a source outside it', () => {
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 1, -4)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('leaves the input untouched', () => {
    const items = ['a', 'b'];
    moveItem(items, 0, 1);
    expect(items).toEqual(['a', 'b']);
  });
});

describe('orderSongsBy', () => {
  const songs = [{ id: 1 }, { id: 2 }, { id: 3 }];

  it('puts the songs in the order of the ids', () => {
    expect(orderSongsBy(songs, [3, 1, 2]).map((song) => song.id)).toEqual([3, 1, 2]);
  });

  it('skips unknown ids and keeps songs the ids leave out at the end', () => {
    expect(orderSongsBy(songs, [2, 9]).map((song) => song.id)).toEqual([2, 1, 3]);
  });
});
