// Tables of the music-folders module: the files found in MUSIC_FOLDERS, the scan's status and the
// playlists (.m3u/.m3u8) found there. Only music-folders.repository.ts reads or writes them.
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keyOf } from '../../platform/db/table-key.js';

/**
 * One file under a music folder as the last scan saw it. A song's identity is this row (its
 * storage key never changes): a file moved or renamed is found again by its fingerprint and the
 * row follows it, so the song keeps its likes, playlist places, lyrics and analysis.
 */
export const musicFolderFiles = pgTable(
  'music_folder_files',
  {
    id: serial('id').primaryKey(),
    /** The folder as MUSIC_FOLDERS names it, resolved to an absolute path. */
    folder: text('folder').notNull(),
    /** Below the folder, with `/` separators. */
    path: text('path').notNull(),
    /** `music/<uuid>.<ext>`: what the song's storage key is; streams and downloads resolve it here. */
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The file's modification time in milliseconds: with the size, what tells an unchanged file. */
    mtimeMs: bigint('mtime_ms', { mode: 'number' }).notNull(),
    /** A hash of samples of the file's bytes and its length: how a moved file is recognised. */
    fingerprint: text('fingerprint'),
    contentType: text('content_type').notNull(),
    /** The song made of it; null while the file cannot be used (see `problem`). */
    songId: integer('song_id').references(() => keyOf('songs'), { onDelete: 'set null' }),
    /** Why the file is not a song (unreadable, not audio, truncated…); null when it is one. */
    problem: text('problem'),
    /** When a scan last failed to find the file; null while it is there. */
    missingSince: timestamp('missing_since', { withTimezone: true }),
    /** The cover file beside it that the song shows (`cover.jpg`…), relative to the folder, and its mtime. */
    coverPath: text('cover_path'),
    lrcMtimeMs: bigint('lrc_mtime_ms', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('music_folder_files_path_key').on(t.folder, t.path),
    uniqueIndex('music_folder_files_storage_key_key').on(t.storageKey),
    index('music_folder_files_fingerprint_idx').on(t.fingerprint),
    index('music_folder_files_song_idx').on(t.songId),
  ],
);

/**
 * The scanner: one row (id 1). Which process scans (a lease it renews while it works, so two
 * processes never scan at once and a dead one's lease runs out), the running or last scan's
 * counts, and a scan asked for by someone whose process does not hold the lease.
 */
export const musicFolderScan = pgTable('music_folder_scan', {
  id: integer('id').primaryKey(),
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  state: text('state').notNull().default('idle'),
  trigger: text('trigger'),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** total, done, added, updated, moved, missing, failed. */
  counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
  error: text('error'),
  /** Problems of whole folders and of walking them (not of one file: those are on the file's row). */
  problems: jsonb('problems').$type<{ folder: string; path: string; reason: string }[]>().notNull().default([]),
  requestedAt: timestamp('requested_at', { withTimezone: true }),
});

/** A playlist file found in a music folder and the playlist it became (the instance owner's). */
export const musicFolderPlaylists = pgTable(
  'music_folder_playlists',
  {
    id: serial('id').primaryKey(),
    folder: text('folder').notNull(),
    path: text('path').notNull(),
    mtimeMs: bigint('mtime_ms', { mode: 'number' }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    playlistId: integer('playlist_id'),
    /** Entries that named no song of the collection, for the scan report. */
    missing: jsonb('missing').$type<string[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('music_folder_playlists_path_key').on(t.folder, t.path)],
);
