import type { MailMessage } from '../../platform/mail/mail.types.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Names come from people: no line breaks or control characters in a subject line. */
// eslint-disable-next-line no-control-regex
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export function shareLinkMail(input: { to: string; senderName: string; songName: string; link: string; expiresAt: Date }): MailMessage {
  const until = input.expiresAt.toISOString().slice(0, 10);
  const sender = oneLine(input.senderName);
  const song = oneLine(input.songName);
  const text = [
    'Hello,',
    '',
    `${sender} shared a song with you on Encore: "${song}".`,
    '',
    'Listen to it here, no account needed:',
    '',
    input.link,
    '',
    `The link works until ${until}.`,
    '',
    '— Encore',
  ].join('\n');
  const html = `<p>Hello,</p>
<p>${escapeHtml(sender)} shared a song with you on Encore: <strong>${escapeHtml(song)}</strong>.</p>
<p><a href="${escapeHtml(input.link)}">Listen to it here</a>, no account needed.</p>
<p>The link works until ${until}.</p>
<p>— Encore</p>`;
  return { to: input.to, subject: `${sender} shared "${song}" with you`.slice(0, 200), text, html };
}
