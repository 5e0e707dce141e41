import { MAX_QUEUE_SONGS } from '@encore/common/listening.contract';
import type { AuthenticatedUser } from '../auth/auth.port.js';
import type { SongRecord } from '../library/library.port.js';
import type { Listening } from '../listening/listening.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, notFound, SubsonicError } from './subsonic-errors.js';
import { songElements, type SongAnnotations } from './subsonic-elements.js';
import { MAX_PAGE, parseId, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

/** How long a scrobble without submission shows in getNowPlaying. */
const NOW_PLAYING_MINUTES = 30;
/** getTopSongs' count when the call gives none. */
const TOP_SONGS_DEFAULT = 50;

/** A song id parameter: anything that is not a song's id names no song (70). */
function songIdParam(raw: string): number {
  const id = parseId(raw);
  if (id.kind !== 'song') throw notFound('Song');
  return id.id;
}

/** The client's name (`c`), what now playing and the queue's `changedBy` show. */
const clientOf = (params: SubsonicParams): string => (params.get('c') ?? '').slice(0, 100) || 'subsonic';

/** Folded as the library folds names: case and accents. */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** The viewer's ratings and plays of these songs, for the song elements. */
export async function annotationsOf(listening: Listening, userId: number, songIds: readonly number[]): Promise<SongAnnotations> {
  const ids = [...new Set(songIds)];
  const [ratings, plays] = await Promise.all([listening.ratings(userId, ids), listening.plays(userId, ids)]);
  return new Map(
    ids.map((id) => {
      const play = plays.get(id);
      return [id, { userRating: ratings.get(id), playCount: play?.playCount ?? 0, played: play?.lastPlayedAt }];
    }),
  );
}

/** The songs of `ids` as the viewer sees them, in the order of `ids` (repeats kept), unknown ones left out. */
async function inOrder(deps: SubsonicDeps, ids: readonly number[], viewerId: number): Promise<SongRecord[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await deps.catalogue.songsByIds([...new Set(ids)], viewerId)).map((song) => [song.id, song]));
  return ids.flatMap((id) => {
    const song = byId.get(id);
    return song ? [song] : [];
  });
}

/**
 * Annotation and listening: scrobble, setRating, getNowPlaying, getPlayQueue / savePlayQueue
 * (the web player's queue) and getTopSongs, over the listening port.
 */
export function annotationEndpoints(deps: SubsonicDeps, listening: Listening): SubsonicEndpoint[] {
  const elements = async (songs: readonly SongRecord[], user: AuthenticatedUser): Promise<SubsonicObject[]> =>
    songElements(
      songs,
      deps.browse,
      await annotationsOf(
        listening,
        user.id,
        songs.map((song) => song.id),
      ),
    );

  return [
    {
      name: 'scrobble',
      handle: async ({ params, user }) => {
        const ids = params.all('id');
        if (ids.length === 0 || ids.every((id) => id === '')) throw missingParameter('id');
        const times = params.all('time');
        const submission = params.get('submission')?.toLowerCase() !== 'false';
        const client = clientOf(params);
        const songIds = ids.map(songIdParam);
        const at = songIds.map((_id, index) => {
          const raw = times[index];
          if (raw === undefined || raw === '') return new Date();
          if (!/^\d{1,15}$/.test(raw)) throw new SubsonicError(0, 'Parameter time must be a whole number (milliseconds since 1970)');
          const when = new Date(Number(raw));
          if (Number.isNaN(when.getTime()) || when.getTime() > Date.now() + 24 * 3600_000) throw new SubsonicError(0, 'Parameter time is not a valid time');
          return when;
        });
        for (const [index, songId] of songIds.entries()) {
          await listening.scrobble(user.id, songId, { submission, at: at[index] ?? new Date(), client });
        }
        return {};
      },
    },
    {
      name: 'setRating',
      handle: async ({ params, user }) => {
        const songId = songIdParam(params.require('id'));
        const rating = params.int('rating');
        if (rating === undefined) throw missingParameter('rating');
        if (rating < 0 || rating > 5) throw new SubsonicError(0, 'Parameter rating must be from 0 to 5');
        await listening.setRating(user.id, songId, rating);
        return {};
      },
    },
    {
      name: 'getNowPlaying',
      handle: async ({ user }) => {
        const entries = await listening.nowPlaying(NOW_PLAYING_MINUTES);
        const songs = await inOrder(
          deps,
          entries.map((entry) => entry.songId),
          user.id,
        );
        const songById = new Map(songs.map((song) => [song.id, song]));
        const names = await deps.accounts.userNames(entries.map((entry) => entry.userId));
        const present = entries.filter((entry) => songById.has(entry.songId) && names.has(entry.userId));
        const songElementsList = await elements(
          present.flatMap((entry) => songById.get(entry.songId) ?? []),
          user,
        );
        const now = Date.now();
        return {
          nowPlaying: {
            entry: present.map((entry, index) => ({
              ...songElementsList[index],
              username: names.get(entry.userId) ?? '',
              minutesAgo: Math.max(0, Math.floor((now - entry.startedAt.getTime()) / 60_000)),
              playerId: 0,
              playerName: entry.client,
            })),
          },
        };
      },
    },
    {
      name: 'getPlayQueue',
      handle: async ({ user }) => {
        const queue = await listening.queue(user.id);
        if (queue.songIds.length === 0) return {};
        const songs = await inOrder(deps, queue.songIds, user.id);
        return {
          playQueue: {
            current: queue.currentSongId === null ? undefined : String(queue.currentSongId),
            position: queue.positionMs,
            username: user.userName,
            changed: queue.changedAt,
            changedBy: queue.changedBy,
            entry: await elements(songs, user),
          },
        };
      },
    },
    {
      name: 'savePlayQueue',
      handle: async ({ params, user }) => {
        const songIds = params
          .all('id')
          .filter((raw) => raw !== '')
          .map(songIdParam);
        if (songIds.length > MAX_QUEUE_SONGS) throw new SubsonicError(0, `A queue holds at most ${MAX_QUEUE_SONGS} songs`);
        const current = params.get('current');
        const currentSongId = current === undefined || current === '' ? null : songIdParam(current);
        const position = params.int('position', 0);
        if (position < 0 || position > 24 * 3600_000) throw new SubsonicError(0, 'Parameter position must be from 0 to a day in milliseconds');
        await listening.saveQueue(user.id, { songIds, currentSongId: currentSongId ?? songIds[0] ?? null, positionMs: position }, clientOf(params));
        return {};
      },
    },
    {
      name: 'getTopSongs',
      handle: async ({ params, user }) => {
        const name = params.require('artist');
        const count = Math.min(Math.max(params.int('count', TOP_SONGS_DEFAULT), 0), MAX_PAGE);
        if (count === 0) return { topSongs: { song: [] } };
        // The artist's songs: those of the albums under their name, and those tagged with it on others' albums.
        const folded = fold(name);
        const artist = (await deps.browse.artists()).find((candidate) => fold(candidate.name) === folded);
        const albums = artist ? await deps.browse.albumsOf(artist.key) : [];
        const ofAlbums = (await Promise.all(albums.map((album) => deps.browse.albumSongs(album.key, user.id)))).flat();
        const none = { count: 0, offset: 0 };
        const found = await deps.browse.search(name, { artists: none, albums: none, songs: { count: MAX_PAGE, offset: 0 } }, user.id);
        const tagged = found.songs.filter((song) => fold(song.artist ?? '') === folded || fold(song.albumArtist ?? '') === folded);
        const songs = [...new Map([...ofAlbums, ...tagged].map((song) => [song.id, song])).values()];
        const plays = await listening.plays(
          user.id,
          songs.map((song) => song.id),
        );
        const playsOf = (song: SongRecord) => plays.get(song.id)?.playCount ?? 0;
        // The caller's most played first, then their liked songs; songs neither played nor liked are not "top".
        const top = songs
          .filter((song) => playsOf(song) > 0 || song.isLiked)
          .sort((a, b) => playsOf(b) - playsOf(a) || Number(b.isLiked) - Number(a.isLiked) || a.id - b.id)
          .slice(0, count);
        return { topSongs: { song: await elements(top, user) } };
      },
    },
  ];
}
