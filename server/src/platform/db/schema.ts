import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The database schema. drizzle-kit reads this file to generate the SQL migrations under
 * server/drizzle; both PGlite and PostgreSQL apply the same migrations at start-up.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    /** Null for accounts that only ever signed in with Google. */
    passwordHash: text('password_hash'),
    googleSubject: text('google_subject'),
    /**
     * Bumped by a password reset or change: tokens and events tickets carrying an older version
     * are refused, and a trigger announces the bump on `encore_sessions` so open event streams end.
     */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * When the owner proved control of `email` (verification link, password reset link, or
     * Google vouching for it at account creation). Null: unverified; Google sign-in never links
     * to such an account. Changing the e-mail clears it.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_user_name_lower_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_subject_key').on(t.googleSubject),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself only ever exists in the e-mail. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Single-use links that prove control of an address; only a SHA-256 of the token is kept. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: it verifies only while the account still has it. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_verification_tokens_hash_key').on(t.tokenHash), index('email_verification_tokens_user_idx').on(t.userId)],
);

/** Fixed-window counters shared by every Encore process (rate limits survive restarts). */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_counters_window_idx').on(t.windowStart)],
);

/**
 * One uploaded audio file and what its tags say. The collection is shared (every signed-in
 * user sees every song); only the owner may delete it.
 */
export const songs = pgTable(
  'songs',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** Lyrics: embedded ones at upload, later edited or transcribed. */
    transcript: text('transcript'),
    coverKey: text('cover_key'),
    coverThumbKey: text('cover_thumb_key'),
    folderId: integer('folder_id').notNull().default(0),
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
  ],
);

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
    ownerId: integer('owner_id').notNull(),
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
export const searchWords = pgTable(
  'search_words',
  { word: text('word').primaryKey() },
  (t) => [index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);

/** A user's favourites; private to that user. */
export const songLikes = pgTable(
  'song_likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.songId] }), index('song_likes_song_idx').on(t.songId)],
);

/** A public link to one song, mailed by a user; only a SHA-256 of its token is kept. */
export const shareLinks = pgTable(
  'share_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('share_links_token_hash_key').on(t.tokenHash),
    index('share_links_song_idx').on(t.songId),
    index('share_links_created_by_idx').on(t.createdBy),
    index('share_links_expires_idx').on(t.expiresAt),
  ],
);

/** A user's private playlist. */
export const playlists = pgTable(
  'playlists',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The prompt an AI playlist was generated from; null for playlists a user made. */
    aiPrompt: text('ai_prompt'),
  },
  (t) => [index('playlists_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * The songs of a playlist in order; a song appears at most once per playlist, and a position
 * once (the constraint is DEFERRABLE in the migration, so one UPDATE may permute positions).
 */
export const playlistSongs = pgTable(
  'playlist_songs',
  {
    playlistId: integer('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    songId: integer('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.songId] }),
    unique('playlist_songs_position_key').on(t.playlistId, t.position),
    index('playlist_songs_song_idx').on(t.songId),
  ],
);

/**
 * Work a user waits for (a transcription, a render): its job reports progress here, and every
 * process sees the same row. States: queued, running, done, failed, cancelled.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'cancelled'] }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    phase: text('phase'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('tasks_owner_idx').on(t.ownerId, t.updatedAt)],
);

/**
 * A song's lyrics (issue 11): one row per song that has any. `text` keeps `[Section]` headers;
 * `line_times` holds one entry per line (null where a line has no time) when the source timed
 * lines; `words` one entry per sung token when timed by word. `songs.transcript` mirrors
 * `text`, written in the same transaction (the spec's calls read it there).
 */
export const lyrics = pgTable('lyrics', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => songs.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  lineTimes: jsonb('line_times').$type<({ start: number; end: number | null } | null)[]>(),
  words: jsonb('words').$type<{ text: string; start: number; end: number }[]>(),
  source: text('source', { enum: ['embedded', 'imported', 'lookup', 'transcribed', 'edited'] }).notNull(),
  language: text('language'),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The transcription running for a song: one at a time. A second caller finds this row and
 * joins the task instead of starting another job; a finished task's row is taken over.
 */
export const lyricsTranscriptions = pgTable('lyrics_transcriptions', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => songs.id, { onDelete: 'cascade' }),
  taskId: uuid('task_id')
    .notNull()
    .references(() => tasks.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Songs whose file was read for embedded lyrics (at ingest or by the one-time backfill). */
export const lyricsEmbeddedScans = pgTable('lyrics_embedded_scans', {
  songId: integer('song_id')
    .primaryKey()
    .references(() => songs.id, { onDelete: 'cascade' }),
  found: text('found', { enum: ['none', 'plain', 'synced'] }).notNull(),
  scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Song2Clip renders. The render's progress and outcome live in its task (`task_id`); this row
 * keeps what the render needs (settings, media) and what it made (the video's key).
 */
export const clips = pgTable(
  'clips',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null once the song is deleted (the clip stays playable). */
    songId: integer('song_id').references(() => songs.id, { onDelete: 'set null' }),
    songTitle: text('song_title'),
    taskId: text('task_id'),
    /** The checked clip settings (common/clips.contract.ts), words included. */
    settings: jsonb('settings').notNull(),
    /** 'images' or 'video'. */
    mediaKind: text('media_kind').notNull(),
    /** Storage keys of the media, in the user's order. */
    mediaKeys: jsonb('media_keys').$type<string[]>().notNull(),
    format: text('format').notNull(),
    quality: text('quality').notNull(),
    aspectRatio: text('aspect_ratio').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Set once rendered and stored. */
    videoKey: text('video_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    durationSeconds: doublePrecision('duration_seconds'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('clips_owner_created_idx').on(t.ownerId, t.createdAt, t.id), uniqueIndex('clips_task_key').on(t.taskId)],
);

/**
 * A song's sonic analysis (issue 12): 'analysed' with its features (the contract's
 * SongFeatures) and the similarity vector, or 'failed' with the reason (undecodable audio).
 * No row: not analysed yet.
 */
export const songAnalyses = pgTable(
  'song_analyses',
  {
    songId: integer('song_id')
      .primaryKey()
      .references(() => songs.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['analysed', 'failed'] }).notNull(),
    features: jsonb('features'),
    vector: jsonb('vector'),
    reason: text('reason'),
    analyserVersion: integer('analyser_version').notNull(),
    analysedAt: timestamp('analysed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('song_analyses_status_idx').on(t.status)],
);

/**
 * One row whose number goes up with every statement that changes songs or their analyses
 * (statement triggers, migration 0010): a process may keep what it derived from them (the AI
 * playlists' candidates) for as long as the number it read with them is current.
 */
export const catalogVersion = pgTable('catalog_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * Processes that work jobs on PostgreSQL (platform/jobs/job-liveness.ts). Each holds a session
 * advisory lock on its id for as long as its connection lives; a row whose lock can be taken
 * belongs to a process that died.
 */
export const jobWorkers = pgTable('job_workers', {
  id: serial('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The pg-boss job each worker is running: a dead worker's are retried at once. */
export const jobClaims = pgTable(
  'job_claims',
  {
    jobId: uuid('job_id').primaryKey(),
    queue: text('queue').notNull(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => jobWorkers.id, { onDelete: 'cascade' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_claims_worker_idx').on(t.workerId)],
);

/**
 * Mail jobs whose message went out: a job run again after a crash finds its mark and sends
 * nothing (platform/mail/mail-deliveries.ts). Rows outlive any retry of their job, then go.
 */
export const mailDeliveries = pgTable('mail_deliveries', {
  jobId: text('job_id').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});
