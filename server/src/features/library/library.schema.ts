// Tables of the library module (the song catalogue, its search and the likes); only library.repository.ts
// reads or writes them (migrations 0009 and 0011 keep song_search and search_words by triggers on songs).
import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * One audio file and what its tags say: uploaded, or found in a music folder (no owner: the
 * instance's). The collection is shared (every signed-in user sees every song); only the
 * uploader may delete an upload.
 */
export const songs = pgTable(
  'songs',
  {
    id: serial('id').primaryKey(),
    /** The uploader; null for a song of a music folder (the instance's). */
    ownerId: integer('owner_id').references(() => keyOf('users'), { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    /** The name the file had on the uploader's disk; downloads are offered under it. */
    fileName: text('file_name').notNull(),
    /** The MIME type detected from the bytes, never the one the browser claimed. */
    fileType: text('file_type').notNull(),
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    title: text('title'),
    artist: text('artist'),
    album: text('album'),
    albumArtist: text('album_artist'),
    genre: text('genre'),
    year: integer('year'),
    trackNumber: integer('track_number'),
    discNumber: integer('disc_number'),
    durationSeconds: doublePrecision('duration_seconds'),
    bitrate: integer('bitrate'),
    sampleRate: integer('sample_rate'),
    /** The audio codec the tags parser named (null for songs added before it was kept): ALAC in an M4A plays in no browser but Safari. */
    codec: text('codec'),
    /** MusicBrainz ids from the tags (null when untagged): the recording, the release, the album artist (else the artist). */
    mbzRecordingId: text('mbz_recording_id'),
    mbzAlbumId: text('mbz_album_id'),
    mbzArtistId: text('mbz_artist_id'),
    /**
     * What the browse model (artists, albums, genres) reads besides the names above: the
     * compilation flag (iTunes' cpil, TCMP, COMPILATION), the sort tags (ALBUMARTISTSORT / TSO2,
     * ARTISTSORT / TSOP) and each value of a multi-valued artist or genre tag (ID3v2.4, Vorbis, MP4).
     */
    compilation: boolean('compilation').notNull().default(false),
    albumArtistSort: text('album_artist_sort'),
    artistSort: text('artist_sort'),
    artists: text('artists').array(),
    genres: text('genres').array(),
    /** Lyrics: embedded ones at upload, later edited or transcribed. */
    transcript: text('transcript'),
    coverKey: text('cover_key'),
    coverThumbKey: text('cover_thumb_key'),
    folderId: integer('folder_id').notNull().default(0),
    /**
     * The sha256 of the file's bytes, hex: what `main.ts import` compares to skip a file already
     * imported. Null for browser uploads (their bytes are never read whole on the server).
     */
    contentSha256: text('content_sha256'),
    /**
     * When the music folder's file went missing: the song is hidden from every list and lookup
     * and comes back with its likes and playlist places if the file returns within the grace
     * period. Always null for uploads.
     */
    missingSince: timestamp('missing_since', { withTimezone: true }),
    /**
     * What search matches: title, artist and album folded to lower case without accents by
     * `encore_fold` (migration 0008: an immutable wrapper of the unaccent extension). The
     * database keeps it, so every write path stays correct.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`encore_fold(coalesce(display_name, '') || ' ' || coalesce(artist, '') || ' ' || coalesce(album, ''))`,
    ),
  },
  (t) => [
    uniqueIndex('songs_storage_key_key').on(t.storageKey),
    // The music page's sorts: one index walk for a page of any of them.
    index('songs_title_sort_idx').on(sql`lower(${t.displayName})`, t.id),
    index('songs_artist_sort_idx').on(sql`lower(${t.artist})`, sql`lower(${t.album})`, t.trackNumber, t.id),
    index('songs_album_sort_idx').on(sql`lower(${t.album})`, t.trackNumber, t.id),
    // All Music, newest first: `order by uploaded_at desc, id desc` scans these backwards (a
    // plain ascending index matches DESC's NULLS FIRST, a `.desc()` one would not).
    index('songs_uploaded_idx').on(t.uploadedAt, t.id),
    // My Music: one owner's uploads, newest first.
    index('songs_owner_uploaded_idx').on(t.ownerId, t.uploadedAt, t.id),
    // The few songs of a music folder whose files are missing (what counts of likes leave out).
    index('songs_missing_idx')
      .on(t.id)
      .where(sql`${t.missingSince} is not null`),
    // An import's "is this file already here?", once per file; unique, so two imports of one
    // folder at once cannot both add a file.
    uniqueIndex('songs_content_sha256_key').on(t.contentSha256),
  ],
);

/**
 * How many songs there are, kept by statement triggers on songs (migration 0024) in a few rows
 * whose sum is the count (a transaction adds to the row of its backend, so concurrent inserts
 * seldom wait for one another). The sum in a snapshot is exactly `count(*)` of songs in it: what
 * the browse index's version reads instead of counting 50,000 songs (~10 ms on PGlite) per call.
 */
export const songCounts = pgTable('song_counts', {
  shard: integer('shard').primaryKey(),
  songs: bigint('songs', { mode: 'number' }).notNull().default(0),
});

/**
 * What a search reads: each song's search text with its owner and sort keys, and nothing else.
 * A search has to read every match (for the total and the page's order), and the songs' own rows
 * are wide (lyrics, file names, storage keys): a typo matching 9,000 of 50,000 songs read 4,600
 * blocks of songs, 1,300 of this. Kept by triggers of migration 0011 on every write to songs;
 * deleting a song deletes its row.
 */
export const songSearch = pgTable(
  'song_search',
  {
    songId: integer('song_id')
      .primaryKey()
      .references(() => songs.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id'),
    /** songs.missing_since is set: left out of lists and searches. */
    missing: boolean('missing').notNull().default(false),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
    searchText: text('search_text').notNull(),
    /** lower(display_name), lower(artist), lower(album): the music page's sorts. */
    titleKey: text('title_key').notNull(),
    artistKey: text('artist_key'),
    albumKey: text('album_key'),
    trackNumber: integer('track_number'),
  },
  // Search: substrings (LIKE) and one-typo words (pg_trgm's word similarity `<%`).
  (t) => [index('song_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops'))],
);

/**
 * Every word of the songs' search text (at least three letters, numbers left out), kept by a trigger on songs
 * (migration 0009). A search word with a typo is matched against these few thousand words, not
 * against 50,000 songs, and its corrections are then found in song_search through its trigram
 * index like any other word. Words of deleted songs stay: they only ever correct to nothing.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);

/** A user's favourites; private to that user. */
export const songLikes = pgTable(
  'song_likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => keyOf('users'), { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.songId] }), index('song_likes_song_idx').on(t.songId)],
);
