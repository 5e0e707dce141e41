import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Logger } from '../logger.js';
import { deliveryMessageId, type Mailer, type MailDelivery, type MailMessage } from './mail.types.js';

/**
 * For self-hosters without SMTP: each message is built as a real RFC 822 message and written
 * to `<outboxDir>/<timestamp>-<delivery id>.eml` (any mail client opens it), and its links are
 * logged so a password-reset link can be found in the log. A delivery whose file is there
 * already is not written again.
 */
export function createOutboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  // nodemailer is loaded with the first message, not at start-up.
  const makeTransport = async () => (await import('nodemailer')).default.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }, { from });
  let transporter: ReturnType<typeof makeTransport> | undefined;
  return {
    driver: 'outbox',
    async send(message: MailMessage, delivery: MailDelivery) {
      await fs.mkdir(outboxDir, { recursive: true });
      const ending = outboxFileEnding(delivery);
      if ((await fs.readdir(outboxDir)).some((name) => name.endsWith(ending))) return;
      const messageId = deliveryMessageId(delivery, from);
      const info = await (
        await (transporter ??= makeTransport())
      ).sendMail({ messageId, to: message.to, subject: message.subject, text: message.text, html: message.html });
      if (!Buffer.isBuffer(info.message)) throw new Error('the outbox transport did not return the message bytes');
      const file = path.join(outboxDir, outboxFileName(new Date(), delivery));
      await writeFileAtomic(file, info.message, { mode: 0o600 });
      logger.info({ to: message.to, subject: message.subject, links: findLinks(message.text) }, 'mail written to outbox');
    },
    async check() {
      await fs.mkdir(outboxDir, { recursive: true });
      const probe = path.join(outboxDir, `.probe-${randomBytes(6).toString('hex')}`);
      await fs.writeFile(probe, '');
      await fs.rm(probe, { force: true });
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}

/** Names sort by time; the delivery id at the end finds a delivery's file again. */
export function outboxFileName(now: Date, delivery: MailDelivery): string {
  return `${now.toISOString().replace(/:/g, '-')}${outboxFileEnding(delivery)}`;
}

function outboxFileEnding(delivery: MailDelivery): string {
  return `-${delivery.id.replace(/[^A-Za-z0-9-]/g, '_')}.eml`;
}

/** Every http(s) URL in the text, in order, without trailing sentence punctuation. */
export function findLinks(text: string): string[] {
  const links = (text.match(/https?:\/\/[^\s<>"'`]+/g) ?? []).map((link) => link.replace(/[.,;:!?)\]]+$/, ''));
  return [...new Set(links)];
}
