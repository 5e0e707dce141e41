import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * Listening (issues 28 and 30): the play queue that follows the user from device to device,
 * the same queue as the Subsonic API's savePlayQueue / getPlayQueue.
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
};
