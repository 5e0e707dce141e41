import { defineJob, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import { renderClipJob } from './clips.jobs.kind.js';
import type { ClipsService } from './clips.service.js';

/**
 * One render at a time per process (two cores are busy with one encode); more wait in the
 * queue. A render a killed process left is retried once at the next start.
 */
export function clipsJobs(clips: ClipsService, options: { concurrency: number }): AnyJobDefinition[] {
  return [
    defineJob(renderClipJob, {
      handler: (payload, context) => clips.render(payload.clipId, context),
      retry: { limit: 1, delaySeconds: 10, backoff: false },
      expireInSeconds: 6 * 3600,
      concurrency: options.concurrency,
      weight: 'heavy',
      // One user's many renders wait their turn behind other users' first ones (issue 29).
      fair: true,
    }),
  ];
}
