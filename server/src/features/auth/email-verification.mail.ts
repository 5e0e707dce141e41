import type { MailMessage } from '../../platform/mail/mail.types.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const NOT_YOU =
  'If you did not create this account, ignore this e-mail and do not open the link: someone else typed your address, and nothing happens unless the link is used.';

export function emailVerificationMail(input: { to: string; userName: string; link: string; hours: number }): MailMessage {
  const text = [
    `Hello ${input.userName},`,
    '',
    'An Encore account was created (or its e-mail changed) with this address. To confirm that the address is yours, open this link:',
    '',
    input.link,
    '',
    `The link works once and expires in ${input.hours} hours.`,
    '',
    NOT_YOU,
    '',
    '— Encore',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(input.userName)},</p>
<p>An Encore account was created (or its e-mail changed) with this address. To confirm that the address is yours, open this link:</p>
<p><a href="${escapeHtml(input.link)}">Verify my e-mail address</a></p>
<p>The link works once and expires in ${input.hours} hours.</p>
<p><strong>${escapeHtml(NOT_YOU)}</strong></p>
<p>— Encore</p>`;
  return { to: input.to, subject: 'Verify your e-mail address for Encore', text, html };
}
