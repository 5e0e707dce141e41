/** The texts the toy module answers with. */
export const toyMessagesEn = {
  noteQueued: 'Your note is on its way.',
  noteNotFound: 'Note not found',
} as const;
