import { describe, expect, it } from 'vitest';
import { albumKeyOf, artistKeyOf, BrowseIndex, namesOf, toAlbumRecord, UNKNOWN_ALBUM, UNKNOWN_ARTIST } from './song-browse.index.js';
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
  musicFolderId: 0,
  mbzAlbumId: null,
  mbzArtistId: null,
  compilation: false,
  albumArtistSort: null,
  artistSort: null,
  artists: null,
  genres: null,
  trackNumber: null,
  discNumber: null,
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
    row(5, { artist: 'BJÖRK', album: 'Post', year: 1996, genre: ' pop ', musicFolderId: 2 }),
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
      genres: ['Pop'],
      addedAt: new Date(Date.UTC(2024, 0, 1) + 1000),
      coverSongId: 2,
      artistKey: artistKeyOf('bjork'),
      songIds: [1, 2, 5],
      musicBrainzId: null,
    });
    expect(index.albums.get(albumKeyOf('', ''))?.name).toBe(UNKNOWN_ALBUM);
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

  it('narrows artists, albums and songs to a library (the uploads or one music folder)', () => {
    const index = new BrowseIndex();
    index.add(rows, fold(rows));
    expect(index.songIdsIn(undefined)).toEqual([1, 2, 3, 4, 5]);
    expect(index.songIdsIn(0)).toEqual([1, 2, 3, 4]);
    expect(index.songIdsIn(2)).toEqual([5]);
    expect(index.songIdsIn(7)).toEqual([]);
    // An album with songs in both is in both; one without songs in the folder is not.
    expect(index.inFolder('albums', index.albumsByName(), 2).map((album) => album.name)).toEqual(['Post']);
    expect(index.inFolder('albums', index.albumsByName(), 0).map((album) => album.name)).toEqual([UNKNOWN_ALBUM, 'Hits', 'Post']);
    expect(index.inFolder('artists', index.artistsByName(), 2).map((artist) => artist.name)).toEqual(['Björk']);
    expect(index.inFolder('artists', index.artistsByName(), undefined)).toHaveLength(3);
    // Kept until the index changes.
    expect(index.songIdsIn(0)).toBe(index.songIdsIn(0));
    index.add([row(6, { artist: 'New', musicFolderId: 0 })], fold([row(6, { artist: 'New' })]));
    expect(index.songIdsIn(0)).toEqual([1, 2, 3, 4, 6]);
  });
});
