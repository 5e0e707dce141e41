import { MAX_QUEUE_SONGS } from '@encore/common/listening.contract';
import { receivedAt } from '../../platform/http/received-at.js';
import type { BrowsedSong } from '../library/library.port.js';
import type { SubsonicDeps, SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { missingParameter, SubsonicError } from './subsonic-errors.js';
import { clientOf, MAX_PAGE, songIdParam } from './subsonic-params.js';

/** How long a scrobble without submission shows in getNowPlaying. */
const NOW_PLAYING_MINUTES = 30;
/** getTopSongs' count when the call gives none. */
const TOP_SONGS_DEFAULT = 50;

/** Folded as the library folds names: case and accents. */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * Annotation and listening: scrobble, setRating, getNowPlaying, getPlayQueue / savePlayQueue
 * (the web player's queue) and getTopSongs, over the listening port.
 */
export function annotationEndpoints(deps: SubsonicDeps): SubsonicEndpoint[] {
  const { listening, entries } = deps;
  return [
    {
      name: 'scrobble',
      handle: async ({ params, user, reply }) => {
        // Without a time, the play is when the scrobble arrived (not when its turn came).
        const now = receivedAt(reply);
        const ids = params.all('id');
        if (ids.length === 0 || ids.every((id) => id === '')) throw missingParameter('id');
        const times = params.all('time');
        const submission = params.get('submission')?.toLowerCase() !== 'false';
        const client = clientOf(params);
        const songIds = ids.map(songIdParam);
        const at = songIds.map((_id, index) => {
          const raw = times[index];
          if (raw === undefined || raw === '') return now;
          if (!/^\d{1,15}$/.test(raw)) throw new SubsonicError(0, 'Parameter time must be a whole number (milliseconds since 1970)');
          const when = new Date(Number(raw));
          if (Number.isNaN(when.getTime()) || when.getTime() > Date.now() + 24 * 3600_000) throw new SubsonicError(0, 'Parameter time is not a valid time');
          return when;
        });
        for (const [index, songId] of songIds.entries()) {
          await listening.scrobble(user.id, songId, { submission, at: at[index] ?? now, client });
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
        const playing = await listening.nowPlaying(NOW_PLAYING_MINUTES);
        const names = await deps.accounts.userNames(playing.map((entry) => entry.userId));
        const present = playing.filter((entry) => names.has(entry.userId));
        const songs = await entries.songsByIds(
          user.id,
          present.map((entry) => entry.songId),
        );
        const songById = new Map(songs.map((song) => [song['id'], song]));
        const now = Date.now();
        return {
          nowPlaying: {
            entry: present.flatMap((entry) => {
              const song = songById.get(String(entry.songId));
              if (!song) return [];
              return [
                {
                  ...song,
                  username: names.get(entry.userId) ?? '',
                  minutesAgo: Math.max(0, Math.floor((now - entry.startedAt.getTime()) / 60_000)),
                  playerId: 0,
                  playerName: entry.client,
                },
              ];
            }),
          },
        };
      },
    },
    {
      name: 'getPlayQueue',
      handle: async ({ user }) => {
        const queue = await listening.queue(user.id);
        if (queue.songIds.length === 0) return {};
        return {
          playQueue: {
            current: queue.currentSongId === null ? undefined : String(queue.currentSongId),
            position: queue.positionMs,
            username: user.userName,
            changed: queue.changedAt,
            changedBy: queue.changedBy,
            entry: await entries.songsByIds(user.id, queue.songIds),
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
        const songs = [...new Map<number, BrowsedSong>([...ofAlbums, ...tagged].map((song) => [song.id, song])).values()];
        const listenings = await listening.listeningOf(
          user.id,
          songs.map((song) => song.id),
        );
        const playsOf = (song: BrowsedSong) => listenings.get(song.id)?.playCount ?? 0;
        // The caller's most played first, then their liked songs; songs neither played nor liked are not "top".
        const top = songs
          .filter((song) => playsOf(song) > 0 || song.isLiked)
          .sort((a, b) => playsOf(b) - playsOf(a) || Number(b.isLiked) - Number(a.isLiked) || a.id - b.id)
          .slice(0, count);
        return { topSongs: { song: await entries.songs(user.id, top) } };
      },
    },
  ];
}
