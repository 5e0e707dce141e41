import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { GeneratedPlaylists } from '../playlists/playlists.port.js';
import type { AnalysisService } from './analysis/analysis.service.js';
import type { DiscoveryService } from './discovery.service.js';

/** One song, right after it is ingested. */
export const analyseSongJob = jobKind('discovery.analyse-song', z.object({ songId: z.number().int().positive() }));
/** Every song without a current analysis (resumable: each song is stored as it is done). */
export const analysisBackfillJob = jobKind('discovery.analysis-backfill', z.object({}));

/** Every AI playlist kept fresh gets its re-ranking (issue 41): sent, debounced, when songs are added or analysed. */
export const freshPlaylistsJob = jobKind('discovery.fresh-playlists', z.object({}));
/** One fresh AI playlist ranked again with its prompt. */
export const refreshPlaylistJob = jobKind('discovery.refresh-playlist', z.object({ playlistId: z.number().int().positive() }));

/**
 * Songs came or were analysed: the fresh playlists are ranked again a minute later, once for
 * every song of that minute. One job per minute (by the database's clock) whatever the number
 * of songs; it starts a minute after the first, after the minute's last song is in.
 */
export const FRESH_DEBOUNCE_SECONDS = 60;

export async function announceSongsChanged(jobs: Pick<Jobs, 'send'>): Promise<void> {
  await jobs.send(
    freshPlaylistsJob,
    {},
    { singletonKey: 'fresh-playlists', singletonSeconds: FRESH_DEBOUNCE_SECONDS, startAfterSeconds: FRESH_DEBOUNCE_SECONDS },
  );
}

/**
 * An owner switched Keep fresh on: the playlist is ranked again now, for the songs that came
 * while it was off. Its own key (not the minute's `playlist:<id>`), so it never takes the slot
 * of a debounced re-rank; a second switch within seconds adds none.
 */
export async function rankSwitchedOn(jobs: Pick<Jobs, 'send'>, playlistId: number): Promise<void> {
  await jobs.send(refreshPlaylistJob, { playlistId }, { singletonKey: `switched-on:${playlistId}`, singletonSeconds: 10 });
}

export interface FreshPlaylistsDeps {
  discovery: Pick<DiscoveryService, 'refresh'>;
  playlists: Pick<GeneratedPlaylists, 'freshPlaylistIds'>;
  jobs: Pick<Jobs, 'send'>;
}

export function discoveryJobs(analysis: AnalysisService, options: { backfill: boolean }, fresh: FreshPlaylistsDeps): AnyJobDefinition[] {
  return [
    defineJob(freshPlaylistsJob, {
      handler: async () => {
        const ids = await fresh.playlists.freshPlaylistIds();
        // One job per playlist (its key): a retry of this one, or a second in the same minute, adds none.
        for (const playlistId of ids) {
          await fresh.jobs.send(refreshPlaylistJob, { playlistId }, { singletonKey: `playlist:${playlistId}`, singletonSeconds: FRESH_DEBOUNCE_SECONDS });
        }
        return { playlists: ids.length };
      },
      retry: { limit: 2, delaySeconds: 30, backoff: true },
      expireInSeconds: 5 * 60,
      concurrency: 1,
      weight: 'light',
    }),
    defineJob(refreshPlaylistJob, {
      handler: async (payload) => ({ outcome: await fresh.discovery.refresh(payload.playlistId) }),
      retry: { limit: 2, delaySeconds: 60, backoff: true },
      expireInSeconds: 10 * 60,
      concurrency: 1,
      weight: 'light',
    }),
    defineJob(analyseSongJob, {
      handler: async (payload, { signal }) => ({ outcome: await analysis.analyseSong(payload.songId, signal) }),
      retry: { limit: 2, delaySeconds: 60, backoff: true },
      expireInSeconds: 15 * 60,
      concurrency: 1,
      weight: 'heavy',
    }),
    defineJob(analysisBackfillJob, {
      handler: (_payload, { signal }) => analysis.backfill(signal),
      retry: { limit: 1, delaySeconds: 300, backoff: false },
      expireInSeconds: 12 * 3600,
      concurrency: 1,
      weight: 'heavy',
      // Sent on every batch of a folder's new songs: one waits while one runs, never a pile of them.
      catchUp: true,
      // Every 15 minutes it picks up what is left (songs of a crashed run, an analyser upgrade).
      ...(options.backfill ? { schedule: { cron: '*/15 * * * *', payload: {} } } : {}),
    }),
  ];
}
