/**
 * Sharing a song by e-mail and the public share page, in English. Its keys are message keys of the
 * app; `{name}` marks a value filled in at run time.
 */
export const sharingEn = {
  // Share by e-mail, and the public share page
  shareTitle: 'Share by Email',
  shareDescription: 'We\'ll email a link that plays "{title}", no account needed. The link expires after 30 days.',
  shareSend: 'Send',
  shareEmailRequired: 'Please enter an email address.',
  shareEmailInvalid: 'Please enter a valid email address.',
  shareSongUrlMissing: 'Failed to retrieve the song URL. Please try again.',
  sendEmailFailed: 'Failed to send email.',
  emailSentSuccess: 'Email sent successfully!',
  shareTitlePage: 'Shared Song',
  shareLoading: 'Loading the shared song…',
  shareInvalidTitle: 'Link Unavailable',
  shareInvalid: 'This share link is invalid or has expired.',
  sharePlayerLabel: 'Play {title}',
  sharedBy: 'Shared by {name}',
  shareExpires: 'Link expires on {date}',
  shareDiscover: 'Discover Encore',
};
