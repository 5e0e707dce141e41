/** One plain e-mail from Encore to a person (password resets and the like). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail through SMTP, or, with no SMTP server configured, drops it in an outbox folder. */
export interface Mailer {
  readonly driver: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Health check: throws if mail cannot be sent. */
  check(): Promise<void>;
  close(): Promise<void>;
}
