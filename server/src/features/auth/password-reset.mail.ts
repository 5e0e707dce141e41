import type { MailMessage } from '../../platform/mail/mail.types.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function passwordResetMail(input: { to: string; userName: string; link: string; minutes: number }): MailMessage {
  const text = [
    `Hello ${input.userName},`,
    '',
    'Someone asked to reset the password of your Encore account. To choose a new password, open this link:',
    '',
    input.link,
    '',
    `The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
    '',
    '— Encore',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(input.userName)},</p>
<p>Someone asked to reset the password of your Encore account. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(input.link)}">Reset my password</a></p>
<p>The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>
<p>— Encore</p>`;
  return { to: input.to, subject: 'Reset your Encore password', text, html };
}
