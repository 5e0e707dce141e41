import { z } from 'zod';
import { defineJob, jobKind, type AnyJobDefinition } from '../jobs/jobs.types.js';
import type { Mailer, MailMessage } from './mail.types.js';

/** One e-mail, sent off the request path. */
export const sendMailJob = jobKind<MailMessage>(
  'mail.send',
  z.object({ to: z.string().min(1), subject: z.string(), text: z.string(), html: z.string().optional() }),
);

export function mailJobs(mailer: Mailer): AnyJobDefinition[] {
  return [
    defineJob(sendMailJob, {
      // The job's id is the delivery's: a re-run after a crash finds the mail sent.
      handler: (message, { jobId }) => mailer.send(message, { id: jobId }),
      retry: { limit: 5, delaySeconds: 5, backoff: true },
      // Above the SMTP client's own timeouts.
      expireInSeconds: 60,
      concurrency: 2,
      weight: 'light',
    }),
  ];
}
