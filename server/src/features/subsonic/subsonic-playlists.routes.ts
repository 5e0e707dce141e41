import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { playlistElement } from './subsonic-elements.js';
import { songIdOf, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';
import type { UserPlaylist } from '../playlists/playlists.port.js';
import type { AuthenticatedUser } from '../auth/auth.port.js';
import { createPlaylistBody } from '@encore/common/playlists.contract';
import { SUBSONIC_SMART_PREFIX } from '@encore/common/smart-playlist.contract';
import type { SmartPlaylistListing } from '../smart-playlists/smart-playlists.port.js';
import type { ZodType } from 'zod';

/** A name or comment by the web API's rules (length, characters), else error 0 with the rule's message. */
function valid(schema: ZodType<string | null>, value: string): string {
  const result = schema.safeParse(value);
  if (!result.success) throw new SubsonicError(0, result.error.issues[0]?.message ?? 'Not a valid value');
  return result.data ?? '';
}
const validName = (value: string) => valid(createPlaylistBody.shape.name, value);
const validComment = (value: string) => valid(createPlaylistBody.shape.description, value);

/** A playlist id as a number; anything else names no playlist (70, as another user's does). */
function playlistIdOf(raw: string): number {
  if (raw.startsWith(SUBSONIC_SMART_PREFIX)) throw new SubsonicError(50, 'Smart playlists are read-only here: change their rules in Encore');
  const id = songIdOf(raw);
  if (id === undefined) throw notFound('Playlist');
  return id;
}

/** The most songs getPlaylist lists of a smart playlist. */
const SMART_ENTRIES_MAX = 5000;

/** A smart playlist as Subsonic's playlist element: read-only, its id apart from the normal playlists' numbers. */
function smartPlaylistElement(playlist: SmartPlaylistListing, owner: string): SubsonicObject {
  return {
    id: `${SUBSONIC_SMART_PREFIX}${playlist.id}`,
    name: playlist.name,
    comment: playlist.comment ?? undefined,
    owner,
    public: false,
    songCount: playlist.songCount,
    duration: playlist.durationSeconds,
    created: playlist.createdAt,
    changed: playlist.updatedAt,
    readonly: true,
  };
}

/** Song ids to add: each must be a song's id (unknown songs are then left out by the playlist, as deleted ones are). */
function songIdsOf(params: SubsonicParams, name: string): number[] {
  return params.all(name).map((raw) => {
    const id = songIdOf(raw);
    if (id === undefined) throw notFound('Song');
    return id;
  });
}

function indexesOf(params: SubsonicParams, name: string): number[] {
  return params.all(name).map((raw) => {
    if (!/^\d{1,9}$/.test(raw)) throw new SubsonicError(0, `Parameter ${name} must be a whole number`);
    return Number(raw);
  });
}

export function playlistEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  const { playlists } = deps;
  const withEntries = async (playlist: UserPlaylist, user: AuthenticatedUser): Promise<SubsonicObject> => ({
    ...playlistElement(playlist, user.userName),
    entry: await deps.entries.songsByIds(
      user.id,
      playlist.songs.map((song) => song.id),
    ),
  });
  return [
    {
      name: 'getPlaylists',
      handle: async ({ params, user }) => {
        const asked = params.get('username');
        if (asked !== undefined && asked.toLowerCase() !== user.userName.toLowerCase()) throw new SubsonicError(50, 'You can only list your own playlists');
        const list = await playlists.list(user.id);
        const smart = await deps.smartPlaylists.list(user.id);
        return {
          playlists: {
            playlist: [
              ...list.map((playlist) => playlistElement(playlist, user.userName)),
              ...smart.map((playlist) => smartPlaylistElement(playlist, user.userName)),
            ],
          },
        };
      },
    },
    {
      name: 'getPlaylist',
      handle: async ({ params, user }) => {
        const id = params.require('id');
        if (id.startsWith(SUBSONIC_SMART_PREFIX)) {
          const smartId = songIdOf(id.slice(SUBSONIC_SMART_PREFIX.length));
          if (smartId === undefined) throw notFound('Playlist');
          const { playlist, songIds } = await deps.smartPlaylists.songs(smartId, user.id, SMART_ENTRIES_MAX);
          // The count and duration are of every song that matches; the entries stop at SMART_ENTRIES_MAX.
          return { playlist: { ...smartPlaylistElement(playlist, user.userName), entry: await deps.entries.songsByIds(user.id, songIds) } };
        }
        return { playlist: await withEntries(await playlists.get(playlistIdOf(id), user.id), user) };
      },
    },
    {
      name: 'createPlaylist',
      handle: async ({ params, user }) => {
        const songIds = songIdsOf(params, 'songId');
        const existing = params.get('playlistId');
        if (existing !== undefined) {
          // Subsonic: with playlistId, the playlist's songs become exactly these.
          const id = playlistIdOf(existing);
          const current = await playlists.get(id, user.id);
          const name = params.get('name');
          const updated = await playlists.update(id, user.id, {
            ...(name ? { name: validName(name) } : {}),
            songIndexesToRemove: current.songs.map((_song, index) => index),
            songIdsToAdd: songIds,
          });
          return { playlist: await withEntries(updated, user) };
        }
        const name = params.get('name');
        if (name === undefined || name.trim() === '') throw missingParameter('name');
        return { playlist: await withEntries(await playlists.create(user.id, validName(name), songIds), user) };
      },
    },
    {
      name: 'updatePlaylist',
      handle: async ({ params, user }) => {
        const id = playlistIdOf(params.require('playlistId'));
        const name = params.get('name');
        const comment = params.get('comment');
        await playlists.update(id, user.id, {
          ...(name !== undefined && name.trim() !== '' ? { name: validName(name) } : {}),
          ...(comment !== undefined ? { comment: validComment(comment) } : {}),
          songIndexesToRemove: indexesOf(params, 'songIndexToRemove'),
          songIdsToAdd: songIdsOf(params, 'songIdToAdd'),
        });
        return {};
      },
    },
    {
      name: 'deletePlaylist',
      handle: async ({ params, user }) => {
        await playlists.delete(playlistIdOf(params.require('id')), user.id);
        return {};
      },
    },
  ];
}
