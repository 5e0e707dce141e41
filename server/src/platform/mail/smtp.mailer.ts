import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';
import type { Mailer, MailMessage } from './mail.types.js';

/** Real delivery through the SMTP server in SMTP_URL (smtp:// or smtps://, credentials inline). */
export function createSmtpMailer(smtpUrl: string, from: string, logger: Logger): Mailer {
  // Every step bounded, so a send ends (sent or failed, then retried) well inside the mail
  // job's 60 s expiry instead of being taken for a crashed attempt and sent twice.
  const transporter = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }, { from });
  return {
    driver: 'smtp',
    async send(message: MailMessage) {
      const info = await transporter.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      logger.debug({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    },
    async check() {
      await transporter.verify();
    },
    async close() {
      transporter.close();
    },
  };
}
