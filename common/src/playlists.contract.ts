import { z } from 'zod';
import { idField, multilineText, text } from './input.contract.js';
import { defineEndpoint } from './endpoint.js';
import { hasLoneSurrogates, MULTILINE_PATTERN } from './input.rules.js';
import { song } from './library.contract.js';

export const PLAYLIST_NAME_MAX = 100;
export const PLAYLIST_DESCRIPTION_MAX = 1000;

export const playlistSongRef = z.object({ id: z.number().int(), displayName: z.string() });

/** A playlist in the list: enough for the cards (name, description, song count). */
export const playlistSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  songCount: z.number().int(),
  songs: z.array(playlistSongRef),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The prompt of an AI playlist (issue 12: "More like this" names its song); null or absent for one a user made. */
  aiPrompt: z.string().nullable().optional(),
  /**
   * An AI playlist generated from a prompt: whether it is kept fresh, ranked again when songs are
   * added or analysed (issue 41). Null or absent for a playlist that cannot be (a user's own, More like this).
   */
  keepFresh: z.boolean().nullable().optional(),
});
export type PlaylistSummary = z.infer<typeof playlistSummary>;

/** One playlist with its songs in playlist order, each a full song the player can play. */
export const playlist = playlistSummary.extend({ songs: z.array(song) });
export type Playlist = z.infer<typeof playlist>;

const name = (requiredMessage: string) =>
  text('The playlist name', requiredMessage)
    .trim()
    .min(1, { error: requiredMessage })
    .max(PLAYLIST_NAME_MAX, { error: `The playlist name can be at most ${PLAYLIST_NAME_MAX} characters` });
const description = multilineText('The description')
  .trim()
  .max(PLAYLIST_DESCRIPTION_MAX, { error: `The description can be at most ${PLAYLIST_DESCRIPTION_MAX} characters` })
  .nullish()
  .transform((value) => (value ? value : null));

export const createPlaylistBody = z.object({ name: name('Please enter a playlist name'), description });
export type CreatePlaylistBody = z.input<typeof createPlaylistBody>;

export const updatePlaylistBody = z.object({ name: name('Please provide a valid name for the playlist'), description });
export type UpdatePlaylistBody = z.input<typeof updatePlaylistBody>;

/** The owner's switch of an AI playlist: kept fresh or not (issue 41). */
export const patchPlaylistBody = z.object({
  keepFresh: z.boolean({ error: 'keepFresh must be true or false' }),
});
export type PatchPlaylistBody = z.input<typeof patchPlaylistBody>;

/** Answered when a playlist that was not generated from a prompt is asked to be kept fresh. */
export const KEEP_FRESH_NOT_AI = 'Only a playlist generated from a prompt can be kept fresh';

/** The most songs one call appends (an album's, in order): as many as a reorder may list. */
export const PLAYLIST_APPEND_MAX = 10_000;

/**
 * SPEC 7 spells it SongId; camelCase is accepted too (DECISIONS). `songIds` appends several
 * songs in their order (an album, issue 38), skipping those the playlist has: all or none.
 */
export const addPlaylistSongBody = z
  .object({
    SongId: idField('The song id').optional(),
    songId: idField('The song id').optional(),
    songIds: z
      .array(idField('The song id'), { error: 'songIds must be a list of song ids' })
      .min(1, { error: 'Please select a song to add' })
      .max(PLAYLIST_APPEND_MAX, { error: `songIds can list at most ${PLAYLIST_APPEND_MAX.toLocaleString('en')} songs` })
      .optional(),
  })
  .transform((body) => {
    const single = body.SongId ?? body.songId;
    return { songIds: body.songIds ?? (single === undefined ? [] : [single]), many: body.songIds !== undefined };
  })
  .refine((body) => body.songIds.length > 0, { error: 'Please select a song to add' });
export type AddPlaylistSongBody = z.input<typeof addPlaylistSongBody>;

export const reorderPlaylistBody = z.object({
  songIds: z.array(idField('The song id'), { error: 'songIds must be the full ordered list of song ids' }).max(10_000),
});
export type ReorderPlaylistBody = z.input<typeof reorderPlaylistBody>;

export const playlistIdParams = z.object({
  id: idField('The playlist id'),
});
export const playlistSongParams = playlistIdParams.extend({
  songId: idField('The song id'),
});

/** The most a playlist file to import may hold (its UTF-8 bytes). */
export const PLAYLIST_IMPORT_MAX_BYTES = 1024 * 1024;
/** The most entries one import reads: as many as a reorder may list. */
export const PLAYLIST_IMPORT_MAX_ENTRIES = 10_000;

/** Messages the server answers an import with (the web app shows them as the toast's reason). */
export const PLAYLIST_IMPORT_MESSAGES = {
  fileRequired: 'Please choose a playlist file',
  empty: 'The playlist file is empty',
  tooLarge: 'The playlist file can be at most 1 MB',
  notM3u: 'This is not an M3U or M3U8 playlist',
  noEntries: 'The playlist file lists no songs',
  tooManyEntries: `A playlist file can list at most ${PLAYLIST_IMPORT_MAX_ENTRIES.toLocaleString('en')} songs`,
} as const;

/** An M3U or M3U8 file's text: the web app reads the file and sends what it says. */
export const importPlaylistBody = z.object({
  text: z
    .string({ error: PLAYLIST_IMPORT_MESSAGES.fileRequired })
    // The shared text rule (tab and line breaks only): a file with other control characters is not a playlist.
    .regex(MULTILINE_PATTERN, { error: PLAYLIST_IMPORT_MESSAGES.notM3u })
    .refine((value) => !hasLoneSurrogates(value), { error: PLAYLIST_IMPORT_MESSAGES.notM3u })
    .refine((value) => value.trim().length > 0, { error: PLAYLIST_IMPORT_MESSAGES.empty })
    .refine((value) => utf8Length(value) <= PLAYLIST_IMPORT_MAX_BYTES, { error: PLAYLIST_IMPORT_MESSAGES.tooLarge }),
});
/** A string's UTF-8 bytes are at least its UTF-16 units: a longer one is too large without encoding it. */
function utf8Length(value: string): number {
  return value.length > PLAYLIST_IMPORT_MAX_BYTES ? value.length : new TextEncoder().encode(value).length;
}
export type ImportPlaylistBody = z.input<typeof importPlaylistBody>;

/**
 * What an import did, entry by entry of the file: `added` songs appended in file order,
 * `alreadyThere` entries naming a song the playlist had (or an earlier entry named), and the
 * entries no song matched (their #EXTINF title, or their path). The three add up to the entries.
 */
export const playlistImportReport = z.object({
  added: z.number().int(),
  alreadyThere: z.number().int(),
  notFound: z.array(z.object({ entry: z.string() })),
});
export type PlaylistImportReport = z.infer<typeof playlistImportReport>;

export const playlistImportResult = z.object({ playlist, report: playlistImportReport });
export type PlaylistImportResult = z.infer<typeof playlistImportResult>;

const tags = ['playlists'];

/** The playlist routes; every one needs a signed-in user. */
export const playlistsEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/playlists', response: z.array(playlistSummary), summary: "The caller's playlists", tags }),
  get: defineEndpoint({
    method: 'GET',
    path: '/playlists/:id',
    params: playlistIdParams,
    response: playlist,
    summary: 'One playlist with its songs in order',
    tags,
  }),
  create: defineEndpoint({ method: 'POST', path: '/playlists', body: createPlaylistBody, response: playlist, status: 201, summary: 'Create a playlist', tags }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/playlists/:id',
    params: playlistIdParams,
    body: updatePlaylistBody,
    response: playlist,
    summary: 'Rename or describe a playlist',
    tags,
  }),
  patch: defineEndpoint({
    method: 'PATCH',
    path: '/playlists/:id',
    params: playlistIdParams,
    body: patchPlaylistBody,
    response: playlist,
    summary: 'Keep an AI playlist fresh: ranked again with its prompt when songs are added or analysed (its owner only)',
    tags,
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/playlists/:id',
    params: playlistIdParams,
    status: 204,
    summary: 'Delete a playlist (its songs stay in the library)',
    tags,
  }),
  addSong: defineEndpoint({
    method: 'POST',
    path: '/playlists/:id/songs',
    params: playlistIdParams,
    body: addPlaylistSongBody,
    response: playlist,
    summary: 'Append a song, or several in order (songIds: those already there are skipped, all or none)',
    tags,
  }),
  reorder: defineEndpoint({
    method: 'PUT',
    path: '/playlists/:id/songs',
    params: playlistIdParams,
    body: reorderPlaylistBody,
    response: playlist,
    summary: 'Reorder: the full ordered list of song ids',
    tags,
  }),
  removeSong: defineEndpoint({
    method: 'DELETE',
    path: '/playlists/:id/songs/:songId',
    params: playlistSongParams,
    response: playlist,
    summary: 'Remove a song from the playlist',
    tags,
  }),
  importM3u: defineEndpoint({
    method: 'POST',
    path: '/playlists/:id/import',
    params: playlistIdParams,
    body: importPlaylistBody,
    response: playlistImportResult,
    summary: 'Import an M3U or M3U8 file: append the songs its entries name (Encore link, then file name, then artist, title and duration)',
    tags,
  }),
  /** An M3U8 file (audio/x-mpegurl), not JSON: no response schema. */
  exportM3u8: defineEndpoint({
    method: 'GET',
    path: '/playlists/:id/m3u8',
    params: playlistIdParams,
    summary: 'Export as M3U8 with signed stream links',
    tags,
  }),
};
