import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from './jobs.types.js';

/** The hourly clean-up of what expires: sessions' one-time tokens, share links, stray files. */
export const cleanupJob = jobKind<Record<string, never>>('maintenance.cleanup', z.object({}).strict() as z.ZodType<Record<string, never>>);

/** Each step belongs to the feature that owns what it removes; this job runs them in turn. */
export function maintenanceJobs(steps: (() => Promise<unknown>)[]): AnyJobDefinition[] {
  return [
    defineJob(cleanupJob, {
      async handler() {
        for (const step of steps) await step();
      },
      retry: { limit: 1, delaySeconds: 60, backoff: false },
      expireInSeconds: 30 * 60,
      concurrency: 1,
      weight: 'light',
      schedule: { cron: '17 * * * *', payload: {} },
    }),
  ];
}
