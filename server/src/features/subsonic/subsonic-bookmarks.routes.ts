import { MAX_QUEUE_SONGS } from '@encore/common/listening.contract';
import type { Bookmarks } from '../bookmarks/bookmarks.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { clientOf, songIdParam, type SubsonicParams } from './subsonic-params.js';

/** A position in milliseconds: a whole number from 0 to a day. */
function positionParam(params: SubsonicParams, required: boolean): number {
  const position = params.int('position');
  if (position === undefined) {
    if (required) throw missingParameter('position');
    return 0;
  }
  if (position < 0 || position > 24 * 3600_000) throw new SubsonicError(0, 'Parameter position must be from 0 to a day in milliseconds');
  return position;
}

/**
 * Where the user stopped: bookmarks (a position in a long song, one per song) and the play queue
 * by index (indexBasedQueue: the current song by its place, so a song queued twice is not ambiguous).
 */
export function bookmarkEndpoints(deps: SubsonicDeps, bookmarks: Bookmarks): SubsonicEndpoint[] {
  const { listening, entries } = deps;
  return [
    {
      name: 'getBookmarks',
      handle: async ({ user }) => {
        const list = await bookmarks.list(user.id);
        const songs = await entries.songsByIds(
          user.id,
          list.map((bookmark) => bookmark.songId),
        );
        const songById = new Map(songs.map((song) => [song['id'], song]));
        return {
          bookmarks: {
            bookmark: list.flatMap((bookmark) => {
              const entry = songById.get(String(bookmark.songId));
              if (!entry) return [];
              return [
                {
                  position: bookmark.positionMs,
                  username: user.userName,
                  comment: bookmark.comment ?? undefined,
                  created: bookmark.createdAt,
                  changed: bookmark.changedAt,
                  entry,
                },
              ];
            }),
          },
        };
      },
    },
    {
      name: 'createBookmark',
      handle: async ({ params, user }) => {
        const songId = songIdParam(params.require('id'));
        const position = positionParam(params, true);
        await bookmarks.save(user.id, songId, position, params.get('comment') ?? null);
        return {};
      },
    },
    {
      name: 'deleteBookmark',
      handle: async ({ params, user }) => {
        const songId = songIdParam(params.require('id'));
        if (!(await bookmarks.remove(user.id, songId))) throw notFound('Bookmark');
        return {};
      },
    },
    {
      name: 'getPlayQueueByIndex',
      handle: async ({ user }) => {
        const queue = await listening.queue(user.id);
        if (queue.songIds.length === 0) return {};
        return {
          playQueueByIndex: {
            currentIndex: queue.currentIndex ?? undefined,
            position: queue.currentIndex === null ? undefined : queue.positionMs,
            username: user.userName,
            changed: queue.changedAt,
            changedBy: queue.changedBy,
            entry: await entries.songsByIds(user.id, queue.songIds),
          },
        };
      },
    },
    {
      name: 'savePlayQueueByIndex',
      handle: async ({ params, user }) => {
        const songIds = params
          .all('id')
          .filter((raw) => raw !== '')
          .map(songIdParam);
        if (songIds.length > MAX_QUEUE_SONGS) throw new SubsonicError(0, `A queue holds at most ${MAX_QUEUE_SONGS} songs`);
        const currentIndex = params.int('currentIndex');
        if (songIds.length > 0 && currentIndex === undefined) throw missingParameter('currentIndex');
        if (currentIndex !== undefined && songIds.length > 0 && (currentIndex < 0 || currentIndex >= songIds.length)) {
          throw new SubsonicError(0, `Parameter currentIndex must be from 0 to ${songIds.length - 1}`);
        }
        const position = positionParam(params, false);
        await listening.saveQueue(
          user.id,
          { songIds, currentSongId: null, currentIndex: songIds.length === 0 ? null : (currentIndex ?? null), positionMs: position },
          clientOf(params),
        );
        return {};
      },
    },
  ];
}
