import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import type { ListenBrainzService } from './listenbrainz/listenbrainz.service.js';

/** One counted play of a user linked to ListenBrainz, to submit as a listen. */
export const submitListenJob = jobKind(
  'listening.submit-listen',
  z.object({ userId: z.number().int().positive(), songId: z.number().int().positive(), listenedAt: z.iso.datetime() }),
);

/**
 * Sent as counted; ListenBrainz busy (429) or failing (5xx, no answer): again after
 * `retrySeconds`, doubling, five times; a refused token or listen: not again.
 */
export function listeningJobs(listenBrainz: ListenBrainzService, options: { retrySeconds: number }): AnyJobDefinition[] {
  return [
    defineJob(submitListenJob, {
      handler: async (payload) => ({ outcome: await listenBrainz.submit(payload) }),
      retry: { limit: 5, delaySeconds: options.retrySeconds, backoff: true },
      expireInSeconds: 120,
      concurrency: 2,
      weight: 'light',
    }),
  ];
}
