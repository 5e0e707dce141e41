import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import type { AnalysisService } from './analysis/analysis.service.js';

/** One song, right after it is ingested. */
export const analyseSongJob = jobKind('discovery.analyse-song', z.object({ songId: z.number().int().positive() }));
/** Every song without a current analysis (resumable: each song is stored as it is done). */
export const analysisBackfillJob = jobKind('discovery.analysis-backfill', z.object({}));

export function discoveryJobs(analysis: AnalysisService, options: { backfill: boolean }): AnyJobDefinition[] {
  return [
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
      // Every 15 minutes it picks up what is left (songs of a crashed run, an analyser upgrade).
      ...(options.backfill ? { schedule: { cron: '*/15 * * * *', payload: {} } } : {}),
    }),
  ];
}
