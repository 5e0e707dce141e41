import type { Config } from '../../config.js';
import type { Logger } from '../logger.js';
import type { MailDeliveries } from './mail-deliveries.js';
import type { Mailer } from './mail.types.js';
import { createOutboxMailer } from './outbox.mailer.js';
import { createSmtpMailer } from './smtp.mailer.js';

/**
 * SMTP when SMTP_URL is set, otherwise the outbox folder under DATA_DIR; either sends each
 * delivery once: a delivery marked sent is skipped, and the mark is written right after the send.
 */
export function createMailer(config: Config['mail'], logger: Logger, deliveries: MailDeliveries): Mailer {
  const transport = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.from, logger) : createOutboxMailer(config.outboxDir, config.from, logger);
  return {
    ...transport,
    async send(message, delivery) {
      if (await deliveries.isSent(delivery.id)) {
        logger.info({ delivery: delivery.id }, 'mail already sent; not sent again');
        return;
      }
      await transport.send(message, delivery);
      await deliveries.markSent(delivery.id);
    },
  };
}
