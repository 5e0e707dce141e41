import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { text } from './input.contract.js';
import { songListEntry } from './library.contract.js';

/**
 * Browsing like a collector (issue 38): artists, albums and genres, the same model and ids the
 * Subsonic API lists (an album is its MusicBrainz release, else its album artist and title;
 * compilations are one album under Various Artists). Every list is paged on the server: pass the
 * `nextCursor` of a page as `cursor` for the next one (null on the last page).
 */
export const ARTIST_SORTS = ['name', 'recent', 'plays'] as const;
export type ArtistSort = (typeof ARTIST_SORTS)[number];
export const ALBUM_SORTS = ['recent', 'name', 'artist', 'year', 'plays', 'random'] as const;
export type AlbumSort = (typeof ALBUM_SORTS)[number];

/** Artist and album ids: the URL-safe keys the Subsonic API shows too (after its ar- / al- prefix). */
const browseId = (label: string) =>
  text(label)
    .min(1, { error: `${label} is required` })
    .max(64, { error: `${label} is not valid` })
    .refine((value) => /^[A-Za-z0-9_-]+$/.test(value), { error: `${label} is not valid` });

export const cursorField = text('The cursor').max(200).optional();
const limitField = z.coerce.number().int().min(1).max(200).optional();
const yearField = z.coerce.number().int().min(0).max(9999).optional();

export const artistRef = z.object({ id: z.string(), name: z.string() });

export const artistSummary = z.object({
  id: z.string(),
  name: z.string(),
  albumCount: z.number().int(),
  songCount: z.number().int(),
  /** The cover of one of their albums (thumbnail): `GET /files/extract-image?fileKey=imageKey`, or null. */
  imageUrl: z.string().nullable(),
  imageKey: z.string().nullable(),
  /** Up to four of their album covers' file keys (a mosaic when there is no image of the artist). */
  mosaicKeys: z.array(z.string()),
});
export type ArtistSummary = z.infer<typeof artistSummary>;

export const albumSummary = z.object({
  id: z.string(),
  name: z.string(),
  artist: artistRef,
  year: z.number().int().nullable(),
  genres: z.array(z.string()),
  songCount: z.number().int(),
  durationSeconds: z.number(),
  /** `GET /files/extract-image?fileKey=coverKey&size=thumb`, or null when no song of it has a cover. */
  coverUrl: z.string().nullable(),
  coverKey: z.string().nullable(),
});
export type AlbumSummary = z.infer<typeof albumSummary>;

export const artistPage = z.object({ items: z.array(artistSummary), nextCursor: z.string().nullable() });
export type ArtistPage = z.infer<typeof artistPage>;
export const albumPage = z.object({ items: z.array(albumSummary), nextCursor: z.string().nullable() });
export type AlbumPage = z.infer<typeof albumPage>;

export const albumDetail = albumSummary.extend({
  /** In disc and track order (a song without a disc number is on disc 1). */
  songs: z.array(songListEntry),
});
export type AlbumDetail = z.infer<typeof albumDetail>;

export const artistDetail = z.object({
  id: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  imageKey: z.string().nullable(),
  /** Their own albums, oldest first (albums without a year last). */
  albums: z.array(albumSummary),
  /** Albums of other artists with a song of theirs (features, compilations). */
  appearsOn: z.array(albumSummary),
  /** Their songs the viewer played most, most first. */
  topSongs: z.array(songListEntry),
  /** Artists whose songs sound nearest theirs (Encore's own sonic analysis). */
  similarArtists: z.array(artistSummary),
});
export type ArtistDetail = z.infer<typeof artistDetail>;

export const genreSummary = z.object({ name: z.string(), albumCount: z.number().int(), songCount: z.number().int() });
export type GenreSummary = z.infer<typeof genreSummary>;

export const listArtistsQuery = z.object({
  q: text('The search text').max(200).optional(),
  sort: z.enum(ARTIST_SORTS, { error: `sort must be one of ${ARTIST_SORTS.join(', ')}` }).optional(),
  limit: limitField,
  cursor: cursorField,
});
export type ListArtistsQuery = z.input<typeof listArtistsQuery>;
export type ListArtistsOptions = z.output<typeof listArtistsQuery>;

export const listAlbumsQuery = z.object({
  q: text('The search text').max(200).optional(),
  genre: text('The genre').max(200).optional(),
  yearFrom: yearField,
  yearTo: yearField,
  artistId: browseId('The artist id').optional(),
  sort: z.enum(ALBUM_SORTS, { error: `sort must be one of ${ALBUM_SORTS.join(', ')}` }).optional(),
  limit: limitField,
  cursor: cursorField,
});
export type ListAlbumsQuery = z.input<typeof listAlbumsQuery>;
export type ListAlbumsOptions = z.output<typeof listAlbumsQuery>;

export const artistIdParams = z.object({ id: browseId('The artist id') });
export const albumIdParams = z.object({ id: browseId('The album id') });

export const ARTIST_NOT_FOUND = 'Artist not found';
export const ALBUM_NOT_FOUND = 'Album not found';

/** `/artists`, `/albums`, `/genres`: the collection by artist, album and genre; every one needs a signed-in user. */
export const browseEndpoints = {
  artists: defineEndpoint({
    method: 'GET',
    path: '/artists',
    query: listArtistsQuery,
    response: artistPage,
    summary: 'Album artists, a page at a time: by name (sort tags, a leading "The" left out), newest album, or your plays',
    tags: ['browse'],
  }),
  artist: defineEndpoint({
    method: 'GET',
    path: '/artists/:id',
    params: artistIdParams,
    response: artistDetail,
    summary: 'One artist: albums by year, albums they appear on, your most played songs of theirs, similar artists',
    tags: ['browse'],
  }),
  albums: defineEndpoint({
    method: 'GET',
    path: '/albums',
    query: listAlbumsQuery,
    response: albumPage,
    summary: 'Albums, a page at a time, filtered by words, genre, years or artist',
    description:
      'sort: name (the default), recent (newest added first), artist, year (oldest first), plays (your plays, most first) or random ' +
      '(a shuffle kept by the cursor, so pages neither repeat nor skip).',
    tags: ['browse'],
  }),
  album: defineEndpoint({
    method: 'GET',
    path: '/albums/:id',
    params: albumIdParams,
    response: albumDetail,
    summary: 'One album and its songs in disc and track order',
    tags: ['browse'],
  }),
  /** A zip of the album's original files, streamed as it is written: no response schema. */
  albumDownload: defineEndpoint({
    method: 'GET',
    path: '/albums/:id/download',
    params: albumIdParams,
    summary: "The album's original files in one zip (stored, not compressed), streamed",
    tags: ['browse'],
  }),
  genres: defineEndpoint({
    method: 'GET',
    path: '/genres',
    response: z.array(genreSummary),
    summary: 'Every genre (each value of a multi-valued tag), by name, with its albums and songs',
    tags: ['browse'],
  }),
};
