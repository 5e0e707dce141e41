import { ownEncoreUrl, startOwnEncore } from './own-encore.js';

/** The address of the limits journey's Encore (the shared e2e server's port + 4). */
export const LIMITS_URL = ownEncoreUrl(4);

/** Its per-user limits: low, so the journey reaches each with little (0.05 MB is 51.2 KB). */
export const LIMITS = { storageMb: '0.05', renders: '1', transcriptions: '1', aiPerMinute: '1' } as const;

/**
 * A second Encore of the built app, with low per-user limits, for the fair-shares journey only
 * (the shared server keeps the defaults every other journey relies on). Nothing works its jobs
 * (WORKER=off): a render or transcription once asked for stays waiting, holding its place.
 */
export async function startLimitsEncore(): Promise<{ stop(): Promise<void> }> {
  return startOwnEncore({
    name: 'limits',
    baseUrl: LIMITS_URL,
    env: {
      ANALYSIS_ON_INGEST: 'false',
      WORKER: 'off',
      // Never called: nothing works the jobs.
      TRANSCRIBE_ENGINE: 'openai',
      TRANSCRIBE_API_URL: 'http://127.0.0.1:9/v1',
      USER_STORAGE_MB: LIMITS.storageMb,
      USER_MAX_RENDERS: LIMITS.renders,
      USER_MAX_TRANSCRIPTIONS: LIMITS.transcriptions,
      USER_AI_PER_MINUTE: LIMITS.aiPerMinute,
    },
  });
}
