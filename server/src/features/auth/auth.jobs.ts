import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../../platform/jobs/jobs.types.js';
import type { AuthService } from './auth.service.js';
import type { ResetRequest } from './password-reset.service.js';

/** A forgot-password request: looked up and mailed off the request path. */
export const passwordResetRequestJob = jobKind<ResetRequest>('auth.password-reset-request', z.object({ email: z.string(), userName: z.string() }));

export function authJobs(auth: AuthService): AnyJobDefinition[] {
  return [
    defineJob(passwordResetRequestJob, {
      handler: (request) => auth.passwordReset.processResetRequest(request),
      retry: { limit: 3, delaySeconds: 5, backoff: true },
      expireInSeconds: 60,
      concurrency: 2,
      weight: 'light',
    }),
  ];
}
