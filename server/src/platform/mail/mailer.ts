import type { Config } from '../../config.js';
import type { Logger } from '../logger.js';
import type { Mailer } from './mail.types.js';
import { createOutboxMailer } from './outbox.mailer.js';
import { createSmtpMailer } from './smtp.mailer.js';

/** SMTP when SMTP_URL is set, otherwise the outbox folder under DATA_DIR. */
export function createMailer(config: Config['mail'], logger: Logger): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.from, logger)
    : createOutboxMailer(config.outboxDir, config.from, logger);
}
