import { describe, expect, it } from 'vitest';
import { albumKeyOf, artistKeyOf, BrowseIndex, namesOf, toAlbumRecord, UNKNOWN_ARTIST } from './song-browse.index.js';
import type { BrowseSongRow } from './song-browse.repository.js';

const row = (id: number, tags: Partial<BrowseSongRow>): BrowseSongRow => ({
  id,
  artist: null,
  albumArtist: null,
  album: null,
  genre: null,
  year: null,
  durationSeconds: 100,
  uploadedAt: new Date(Date.UTC(2024, 0, 1) + id * 1000),
  hasCover: false,
  ...tags,
});

/** What encore_fold does to these few names (the database folds the real ones). */
const fold = (rows: BrowseSongRow[]) => new Map(namesOf(rows).map((name) => [name, name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()]));

describe('the browse index', () => {
  const rows = [
    row(1, { artist: ' Björk ', album: 'Post', year: 1995 }),
    row(2, { artist: 'bjork', albumArtist: '', album: 'post', year: 1996, hasCover: true, genre: 'Pop' }),
    row(3, { artist: 'Guest', albumArtist: 'Various Artists', album: 'Hits', year: 1996 }),
    row(4, { artist: '', album: null }),
    row(5, { artist: 'BJÖRK', album: 'Post', year: 1996, genre: ' pop ' }),
  ];

  it('files songs under the album artist, else the artist, else the unknown artist, names folded', () => {
    const index = new BrowseIndex();
    index.add(rows, fold(rows));
    expect(index.artistsByName().map((artist) => [artist.name, artist.songCount])).toEqual([
      [UNKNOWN_ARTIST, 1],
      ['Björk', 3],
      ['Various Artists', 1],
    ]);
    const post = index.albums.get(albumKeyOf('bjork', 'post'));
    expect(post && toAlbumRecord(post)).toEqual({
      key: albumKeyOf('bjork', 'post'),
      artist: 'Björk',
      name: 'Post',
      songCount: 3,
      durationSeconds: 300,
      year: 1996,
      genre: 'Pop',
      addedAt: new Date(Date.UTC(2024, 0, 1) + 1000),
      coverSongId: 2,
    });
    expect(index.albums.get(albumKeyOf('', ''))?.name).toBe('');
    expect(index.genresByName().map((genre) => [genre.name, genre.songCount, genre.albums.size])).toEqual([['Pop', 2, 1]]);
  });

  it('makes keys that are URL-safe, stable and distinct between artists and albums', () => {
    expect(artistKeyOf('bjork')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(albumKeyOf('bjork', 'post')).toBe(albumKeyOf('bjork', 'post'));
    expect(albumKeyOf('bjork', 'post')).not.toBe(albumKeyOf('bjork', 'post '));
    expect(albumKeyOf('', '')).not.toBe(artistKeyOf(''));
    // The separator (NUL, which no PostgreSQL text holds) keeps "ab" + "c" apart from "a" + "bc".
    expect(albumKeyOf('ab', 'c')).not.toBe(albumKeyOf('a', 'bc'));
  });

  it('extended with later songs, is the index built from all of them at once', () => {
    const whole = new BrowseIndex();
    whole.add(rows, fold(rows));
    const grown = new BrowseIndex();
    grown.add(rows.slice(0, 2), fold(rows.slice(0, 2)));
    expect(grown.albumsNewest()).toHaveLength(1);
    grown.add(rows.slice(2), fold(rows.slice(2)));
    expect(grown.albumsNewest().map(toAlbumRecord)).toEqual(whole.albumsNewest().map(toAlbumRecord));
    expect(grown.songIds).toEqual([1, 2, 3, 4, 5]);
  });
});
