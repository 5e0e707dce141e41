import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { idField, multilineText, text } from './input.contract.js';
import { songListEntry } from './library.contract.js';
import { PLAYLIST_DESCRIPTION_MAX, PLAYLIST_NAME_MAX } from './playlists.contract.js';
import { parseSmartRules, type SmartRules } from './smart-playlist.rules.js';

/** Where a smart playlist came from: the user's editor or an imported file, a preset given to every new user, a `.nsp` file of a music folder. */
export const smartPlaylistSource = z.enum(['user', 'preset', 'folder']);
export type SmartPlaylistSource = z.infer<typeof smartPlaylistSource>;

/** Rules on the wire, written in the `.nsp` shape (see smart-playlist.rules.ts). */
export const nspRules = z.record(z.string(), z.unknown());

/** A request's rules: checked, and turned into the tree the server compiles. */
export const smartRulesInput = z.unknown().transform((value, context): SmartRules => {
  const parsed = parseSmartRules(value);
  if (!parsed.ok) {
    context.addIssue({ code: 'custom', message: parsed.message, input: value });
    return z.NEVER;
  }
  return parsed.rules;
});

export const smartPlaylist = z.object({
  id: z.number().int(),
  name: z.string(),
  comment: z.string().nullable(),
  rules: nspRules,
  source: smartPlaylistSource,
  /** How many songs match now, for the viewer (after the rules' limit). */
  songCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SmartPlaylist = z.infer<typeof smartPlaylist>;

const name = text('The playlist name', 'Please enter a playlist name')
  .trim()
  .min(1, { error: 'Please enter a playlist name' })
  .max(PLAYLIST_NAME_MAX, { error: `The playlist name can be at most ${PLAYLIST_NAME_MAX} characters` });
const comment = multilineText('The comment')
  .trim()
  .max(PLAYLIST_DESCRIPTION_MAX, { error: `The comment can be at most ${PLAYLIST_DESCRIPTION_MAX} characters` })
  .nullish()
  .transform((value) => (value ? value : null));

export const saveSmartPlaylistBody = z.object({ name, comment, rules: smartRulesInput });
export type SaveSmartPlaylistBody = z.input<typeof saveSmartPlaylistBody>;

/** The most a request with rules may carry; the rules themselves are checked against SMART_MAX_RULES_CHARS (a 400 that says so). */
export const SMART_PLAYLIST_BODY_LIMIT = 8 * 1024 * 1024;

export const SMART_PLAYLIST_MESSAGES = {
  notNsp: 'This is not a smart playlist file (.nsp): its JSON cannot be read',
  readOnly: 'This smart playlist comes from a music folder: change its .nsp file instead',
} as const;

/** A `.nsp` file as it is: its text (comments allowed), or its JSON already parsed. */
export const importSmartPlaylistBody = z.union([multilineText('The .nsp file').max(SMART_PLAYLIST_BODY_LIMIT), z.record(z.string(), z.unknown())], {
  error: SMART_PLAYLIST_MESSAGES.notNsp,
});

export const smartPlaylistIdParams = z.object({ id: idField('The smart playlist id') });

export const SMART_PAGE_MAX = 500;
export const smartSongsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(SMART_PAGE_MAX).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** A page of matching songs and how many match in all (after the rules' limit). */
export const smartSongsPage = z.object({ total: z.number().int(), songs: z.array(songListEntry) });
export type SmartSongsPage = z.infer<typeof smartSongsPage>;

/** The editor's live count: rules not saved yet, and how many of the first songs to show. */
export const previewSmartPlaylistBody = z.object({
  rules: smartRulesInput,
  limit: z.number().int().min(0).max(SMART_PAGE_MAX).default(20),
});
export type PreviewSmartPlaylistBody = z.input<typeof previewSmartPlaylistBody>;

/** Subsonic ids of smart playlists: apart from the numbers of normal playlists. */
export const SUBSONIC_SMART_PREFIX = 'smart-';

const tags = ['smart-playlists'];

export const smartPlaylistsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/smart-playlists',
    response: z.array(smartPlaylist),
    summary: "The caller's smart playlists (a new user's presets are made at the first call)",
    tags,
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/smart-playlists/:id',
    params: smartPlaylistIdParams,
    response: smartPlaylist,
    summary: 'One smart playlist',
    tags,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/smart-playlists',
    body: saveSmartPlaylistBody,
    response: smartPlaylist,
    status: 201,
    summary: 'Create a smart playlist from rules in the .nsp shape',
    tags,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/smart-playlists/:id',
    params: smartPlaylistIdParams,
    body: saveSmartPlaylistBody,
    response: smartPlaylist,
    summary: "Change a smart playlist's name, comment and rules",
    tags,
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/smart-playlists/:id',
    params: smartPlaylistIdParams,
    status: 204,
    summary: 'Delete a smart playlist',
    tags,
  }),
  songs: defineEndpoint({
    method: 'GET',
    path: '/smart-playlists/:id/songs',
    params: smartPlaylistIdParams,
    query: smartSongsQuery,
    response: smartSongsPage,
    summary: 'A page of the songs that match now, for the caller (their plays and likes)',
    tags,
  }),
  preview: defineEndpoint({
    method: 'POST',
    path: '/smart-playlists/preview',
    body: previewSmartPlaylistBody,
    response: smartSongsPage,
    summary: 'How many songs rules match, and the first of them, without saving',
    tags,
  }),
  import: defineEndpoint({
    method: 'POST',
    path: '/smart-playlists/import',
    body: importSmartPlaylistBody,
    response: smartPlaylist,
    status: 201,
    summary: 'Import a Navidrome .nsp file (its text, or its JSON); the playlist\'s name is the file\'s "name"',
    tags,
  }),
  /** The rules as a .nsp file (application/json download), not the API's JSON answer. */
  exportNsp: defineEndpoint({ method: 'GET', path: '/smart-playlists/:id/nsp', params: smartPlaylistIdParams, summary: 'Export as a .nsp file', tags }),
  /** An M3U8 file of the songs that match now. */
  exportM3u8: defineEndpoint({
    method: 'GET',
    path: '/smart-playlists/:id/m3u8',
    params: smartPlaylistIdParams,
    summary: 'Export the songs that match now as M3U8 with signed stream links',
    tags,
  }),
};
