import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import type { EmbeddedLyricsService } from './embedded/embedded-lyrics.service.js';
import type { TranscribePayload, TranscriptionService } from './transcription/transcription.service.js';

export const transcribeLyricsJob = jobKind<TranscribePayload>(
  'lyrics.transcribe',
  z.object({ songId: z.number().int().positive(), requesterId: z.number().int().positive(), language: z.string().nullable() }),
);

/**
 * Reads one song's file for embedded lyrics. Uploads keep theirs from the tags they read
 * (`EmbeddedLyricsService.adopt`); this job stays for jobs an earlier version queued.
 */
export const embeddedLyricsJob = jobKind('lyrics.embedded', z.object({ songId: z.number().int().positive() }));

/** Reads every song never read for embedded lyrics, in batches (once per library, then a no-op). */
export const embeddedBackfillJob = jobKind('lyrics.embedded-backfill', z.object({}));

export function lyricsJobs(transcription: TranscriptionService, embedded: EmbeddedLyricsService, transcribeTimeoutMs: number): AnyJobDefinition[] {
  return [
    defineJob(transcribeLyricsJob, {
      handler: (payload, context) => transcription.run(payload, context),
      // A crash mid-job retries it; the lyrics are written once, at the end, in one transaction.
      retry: { limit: 1, delaySeconds: 5, backoff: false },
      expireInSeconds: Math.ceil(transcribeTimeoutMs / 1000) + 600,
      concurrency: 1,
      weight: 'heavy',
      // One user's many transcriptions wait their turn behind other users' first ones (issue 29).
      fair: true,
    }),
    defineJob(embeddedLyricsJob, {
      handler: (payload) => embedded.scan(payload.songId),
      retry: { limit: 2, delaySeconds: 30, backoff: true },
      expireInSeconds: 300,
      concurrency: 2,
      weight: 'light',
    }),
    defineJob(embeddedBackfillJob, {
      handler: () => embedded.backfill(),
      retry: { limit: 3, delaySeconds: 60, backoff: true },
      expireInSeconds: 6 * 3600,
      concurrency: 1,
      weight: 'light',
    }),
  ];
}
