/** The words the browser tests' transcription engine (e2e/transcription-stand-in.ts) hears. */
export const STAND_IN_WORDS = ['Shine', 'on', 'little', 'star', 'tonight', 'we', 'sing'];
