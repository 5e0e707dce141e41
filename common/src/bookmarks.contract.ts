import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { idField } from './input.contract.js';

/**
 * Bookmarks (issue 41): where a user stopped in a long song, one per song; the same bookmarks
 * as Subsonic's getBookmarks/createBookmark. The web player saves them for songs longer than
 * BOOKMARK_MIN_SECONDS and resumes there.
 */

/** Songs longer than this (seconds) get a bookmark in the web player. */
export const BOOKMARK_MIN_SECONDS = 600;
/** The furthest a position may be: a day in milliseconds. */
export const BOOKMARK_MAX_POSITION_MS = 24 * 3600_000;

export const bookmark = z.object({
  songId: z.number().int(),
  positionMs: z.number().int(),
  comment: z.string().nullable(),
  changedAt: z.string(),
});
export type Bookmark = z.infer<typeof bookmark>;

/** The caller's bookmark of a song, or null when there is none. */
export const songBookmarkResponse = z.object({ bookmark: bookmark.nullable() });
export type SongBookmarkResponse = z.infer<typeof songBookmarkResponse>;

export const bookmarkSongParams = z.object({ songId: idField('The song id') });

const positionMessage = 'A bookmark position is a whole number of milliseconds from 0 to a day';
export const saveBookmarkBody = z.object({
  positionMs: z
    .number({ error: positionMessage })
    .int({ error: positionMessage })
    .min(0, { error: positionMessage })
    .max(BOOKMARK_MAX_POSITION_MS, { error: positionMessage }),
});
export type SaveBookmarkBody = z.input<typeof saveBookmarkBody>;

const tags = ['bookmarks'];

export const bookmarksEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/bookmarks/:songId',
    params: bookmarkSongParams,
    response: songBookmarkResponse,
    summary: "The caller's bookmark of a song (null when none)",
    tags,
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/bookmarks/:songId',
    params: bookmarkSongParams,
    body: saveBookmarkBody,
    response: bookmark,
    summary: 'Save where the caller is in a song (replacing their bookmark of it)',
    tags,
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/bookmarks/:songId',
    params: bookmarkSongParams,
    status: 204,
    summary: "Remove the caller's bookmark of a song (none is fine)",
    tags,
  }),
};
