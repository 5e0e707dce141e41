import { z } from 'zod';
import { jobKind } from '../../platform/jobs/jobs.types.js';

/** The render job's kind: all the service needs to start it. */
export const renderClipJob = jobKind('clips.render', z.object({ clipId: z.number().int().positive() }));
