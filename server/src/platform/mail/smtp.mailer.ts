import type { Logger } from '../logger.js';
import { deliveryMessageId, type Mailer, type MailDelivery, type MailMessage } from './mail.types.js';

/** Real delivery through the SMTP server in SMTP_URL (smtp:// or smtps://, credentials inline). */
export function createSmtpMailer(smtpUrl: string, from: string, logger: Logger): Mailer {
  // Every step bounded, so a send ends (sent or failed, then retried) well inside the mail
  // job's 60 s expiry instead of being taken for a crashed attempt and sent twice.
  // nodemailer is loaded with the first message or health check, not at start-up.
  const makeTransport = async () =>
    (await import('nodemailer')).default.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }, { from });
  let transporter: ReturnType<typeof makeTransport> | undefined;
  const transport = () => (transporter ??= makeTransport());
  return {
    driver: 'smtp',
    async send(message: MailMessage, delivery: MailDelivery) {
      const messageId = deliveryMessageId(delivery, from);
      const info = await (await transport()).sendMail({ messageId, to: message.to, subject: message.subject, text: message.text, html: message.html });
      logger.debug({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    },
    async check() {
      await (await transport()).verify();
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}
