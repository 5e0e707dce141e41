import type { MailMessage } from '../mail/mail.types.js';

/**
 * Every kind of background work, one pg-boss queue each. Handlers must be idempotent: a job
 * may run again after a crash or a retry.
 */
export interface JobMap {
  'mail.send': MailMessage;
  'maintenance.cleanup': Record<string, never>;
  /** A forgot-password request: looked up and mailed off the request path. */
  'auth.password-reset-request': { email: string; userName: string };
}

export type JobName = keyof JobMap;
export type JobHandler<N extends JobName> = (data: JobMap[N], job: { id: string; name: N }) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };
