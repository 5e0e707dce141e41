import { describe, expect, it } from 'vitest';
import { visiblePages } from '../../components/ui/pagination';
import { makeSong } from '../../test/song-fixture';
import { filterSongs, musicTitleKey, pageOf, songListFilterFrom } from './song-search';

describe('filterSongs', () => {
  const songs = [
    makeSong(1, { displayName: 'Blue Hour', artist: 'Nova', album: null }),
    makeSong(2, { displayName: 'Red Sky', artist: null, album: 'Sunsets' }),
    makeSong(3, { displayName: 'Green', artist: 'Blueprint', album: 'Forest' }),
  ];

  it('matches display name, artist and album, ignoring case and outer spaces', () => {
    expect(filterSongs(songs, 'blue').map((song) => song.id)).toEqual([1, 3]);
    expect(filterSongs(songs, ' SUNSET ').map((song) => song.id)).toEqual([2]);
    expect(filterSongs(songs, 'nova').map((song) => song.id)).toEqual([1]);
    expect(filterSongs(songs, '').map((song) => song.id)).toEqual([1, 2, 3]);
    expect(filterSongs(songs, 'jazz')).toEqual([]);
  });
});

describe('the /music query', () => {
  it('reads owner and favorites, and picks the title', () => {
    const read = (search: string) => songListFilterFrom(new URLSearchParams(search));
    expect(read('')).toEqual({ owner: false, favorites: false });
    expect(read('owner=true&favorites=true')).toEqual({ owner: true, favorites: true });
    expect(read('owner=1')).toEqual({ owner: true, favorites: false });
    expect(read('owner=yes')).toEqual({ owner: false, favorites: false });
    expect(musicTitleKey(read(''))).toBe('musicTitleAll');
    expect(musicTitleKey(read('owner=true'))).toBe('musicTitleMine');
    expect(musicTitleKey(read('owner=true&favorites=true'))).toBe('musicTitleFavorites');
  });
});

describe('paging', () => {
  it('slices a page and keeps the page within range', () => {
    const items = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(pageOf(items, 1, 8)).toEqual({ page: 1, pageCount: 3, items: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(pageOf(items, 3, 8).items).toEqual([17, 18, 19, 20]);
    expect(pageOf(items, 9, 8).page).toBe(3);
    expect(pageOf([], 2, 8)).toEqual({ page: 1, pageCount: 1, items: [] });
  });

  it('numbers every page when few, and the ends and neighbours when many', () => {
    expect(visiblePages(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(visiblePages(1, 20)).toEqual([1, 2, 3, 4, null, 20]);
    expect(visiblePages(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(visiblePages(20, 20)).toEqual([1, null, 17, 18, 19, 20]);
  });
});
