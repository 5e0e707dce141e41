import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { text } from './input.contract.js';
import { songIdParams, songListEntry } from './library.contract.js';

/**
 * Listening (issues 28 and 30): the play queue that follows the user from device to device,
 * the same queue as the Subsonic API's savePlayQueue / getPlayQueue; play counts and the
 * history of plays; the link to ListenBrainz that plays are scrobbled to.
 */

/** The most songs a queue holds. */
export const MAX_QUEUE_SONGS = 5000;

const songId = z.number().int().positive().max(2_147_483_647);

export const playQueue = z.object({
  /** The songs in order; ids of songs that no longer exist are left out. */
  songIds: z.array(songId).max(MAX_QUEUE_SONGS, { error: `A queue holds at most ${MAX_QUEUE_SONGS} songs` }),
  /** The song playing (one of songIds), or null. */
  current: songId.nullable(),
  /** Where in the current song playback is. */
  positionSeconds: z
    .number()
    .min(0)
    .max(24 * 3600),
});
export type PlayQueue = z.infer<typeof playQueue>;

/**
 * When the web player counts a play: once the song has played half its length or this long,
 * whichever comes first (Last.fm's and ListenBrainz's rule).
 */
export const PLAY_COUNTS_AFTER_SECONDS = 4 * 60;

/** `POST /files/:id/plays`: whether this call counted a play (false: a second call for the same play), and the caller's count now. */
export const countedPlay = z.object({
  counted: z.boolean(),
  playCount: z.number().int().min(0),
  lastPlayedAt: z.string(),
});
export type CountedPlay = z.infer<typeof countedPlay>;

export const HISTORY_KINDS = ['recent', 'most'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
export const HISTORY_MAX = 100;

export const historyQuery = z.object({
  kind: z.enum(HISTORY_KINDS, { error: 'kind must be recent or most' }),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(HISTORY_MAX, { error: `limit must be at most ${HISTORY_MAX}` })
    .default(20),
});

/** A song the caller played: the song as lists show it, their count of it and their last play. */
export const playedSong = songListEntry.extend({
  playCount: z.number().int().min(1),
  lastPlayedAt: z.string(),
});
export type PlayedSong = z.infer<typeof playedSong>;

/** Recently played (newest last play first) or most played (highest count first, then newest). */
export const playHistory = z.object({ kind: z.enum(HISTORY_KINDS), songs: z.array(playedSong) });
export type PlayHistory = z.infer<typeof playHistory>;

/** The caller's link to ListenBrainz: whether they linked a token, the ListenBrainz user it is, how submitting goes. */
export const listenBrainzStatus = z.object({
  linked: z.boolean(),
  userName: z.string().nullable(),
  /** The last listen ListenBrainz accepted (ISO), and the last refusal that made Encore give up on a listen. */
  lastSubmittedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
});
export type ListenBrainzStatus = z.infer<typeof listenBrainzStatus>;

/** A ListenBrainz user token (a UUID, found on listenbrainz.org under Settings). */
export const listenBrainzTokenBody = z.object({
  token: text('The ListenBrainz token', 'The ListenBrainz token is required').trim().min(1, { error: 'The ListenBrainz token is required' }).max(200),
});

export const LISTENBRAINZ_MESSAGES = {
  tokenRefused: 'ListenBrainz did not accept this token',
  unreachable: 'ListenBrainz could not be reached; try again later',
} as const;

const tags = ['listening'];

export const listeningEndpoints = {
  getQueue: defineEndpoint({
    method: 'GET',
    path: '/player/queue',
    response: playQueue,
    summary: "The user's play queue (empty when none was saved)",
    tags,
  }),
  saveQueue: defineEndpoint({
    method: 'PUT',
    path: '/player/queue',
    body: playQueue,
    response: playQueue,
    summary: "Save the user's play queue whole (unknown songs dropped); answers it as saved",
    tags,
  }),
  countPlay: defineEndpoint({
    method: 'POST',
    path: '/files/:id/plays',
    params: songIdParams,
    response: countedPlay,
    summary: 'Count a play of the song (the web player calls it after half the song or 4 minutes)',
    description:
      'No body. A second call for the same song by the same user within half its length (at most 4 minutes) counts nothing (counted: false): ' +
      'no play can be counted twice that fast. A counted play is sent to ListenBrainz when the user linked a token.',
    tags,
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/player/history',
    query: historyQuery,
    response: playHistory,
    summary: "The caller's recently played (kind=recent) or most played (kind=most) songs",
    tags,
  }),
  listenBrainz: defineEndpoint({
    method: 'GET',
    path: '/profile/listenbrainz',
    response: listenBrainzStatus,
    summary: "The caller's link to ListenBrainz",
    tags,
  }),
  linkListenBrainz: defineEndpoint({
    method: 'PUT',
    path: '/profile/listenbrainz',
    body: listenBrainzTokenBody,
    response: listenBrainzStatus,
    summary: 'Link a ListenBrainz user token (checked with ListenBrainz first): counted plays are submitted as listens',
    tags,
  }),
  unlinkListenBrainz: defineEndpoint({
    method: 'DELETE',
    path: '/profile/listenbrainz',
    status: 204,
    summary: 'Forget the ListenBrainz token: plays are no longer submitted',
    tags,
  }),
};
