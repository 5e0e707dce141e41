import type { MailMessage } from '../../platform/mail/mail.types.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function invitationMail(input: { to: string; invitedBy: string; link: string; days: number; instance: string }): MailMessage {
  const text = [
    'Hello,',
    '',
    `${input.invitedBy} invites you to Encore at ${input.instance}, a music library to listen, upload and share. To create your account, open this link:`,
    '',
    input.link,
    '',
    `The link works once and expires in ${input.days} days. If you did not expect it, ignore this e-mail.`,
    '',
    '— Encore',
  ].join('\n');
  const html = `<p>Hello,</p>
<p>${escapeHtml(input.invitedBy)} invites you to Encore at ${escapeHtml(input.instance)}, a music library to listen, upload and share. To create your account, open this link:</p>
<p><a href="${escapeHtml(input.link)}">Create my account</a></p>
<p>The link works once and expires in ${input.days} days. If you did not expect it, ignore this e-mail.</p>
<p>— Encore</p>`;
  return { to: input.to, subject: 'You are invited to Encore', text, html };
}
