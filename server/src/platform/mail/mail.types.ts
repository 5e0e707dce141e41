/** One plain e-mail from Encore to a person (password resets and the like). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Which delivery a message is: its id (the mail job's) names the outbox file and the
 * Message-ID, and a delivery marked sent is not sent again.
 */
export interface MailDelivery {
  id: string;
}

/** Sends mail through SMTP, or, with no SMTP server configured, drops it in an outbox folder. */
export interface Mailer {
  readonly driver: 'smtp' | 'outbox';
  /**
   * Sends `message` unless `delivery` went out already: a job run again after a crash sends
   * nothing (or, crashed between its send and the mark, the same message with the same
   * Message-ID, and the same outbox file).
   */
  send(message: MailMessage, delivery: MailDelivery): Promise<void>;
  /** Health check: throws if mail cannot be sent. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The Message-ID of a delivery: the same on every attempt, so receivers can tell a repeat. */
export function deliveryMessageId(delivery: MailDelivery, from: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'encore.invalid';
  return `<${delivery.id.replace(/[^A-Za-z0-9.-]/g, '')}@${domain}>`;
}
