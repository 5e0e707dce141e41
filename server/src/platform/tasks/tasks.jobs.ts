import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../jobs/jobs.types.js';
import type { Tasks } from './tasks.js';

/** Every minute: tasks whose job pg-boss gave up on (expired on its last attempt) are failed, not left running. */
export const sweepAbandonedTasksJob = jobKind('tasks.sweep-abandoned', z.object({}));

export function tasksJobs(tasks: Tasks): AnyJobDefinition[] {
  return [
    defineJob(sweepAbandonedTasksJob, {
      handler: async () => {
        await tasks.sweepAbandoned();
      },
      retry: { limit: 0, delaySeconds: 0, backoff: false },
      expireInSeconds: 60,
      concurrency: 1,
      weight: 'light',
      schedule: { cron: '* * * * *', payload: {} },
    }),
  ];
}
