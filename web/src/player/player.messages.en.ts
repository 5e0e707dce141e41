/**
 * The player bar, in English. Its keys are message keys of the app; `{name}` marks a value filled
 * in at run time.
 */
export const playerEn = {
  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchSongUrlFailed: 'Failed to fetch song URL',

  // Player bar
  playerRegion: 'Player',
  playerNext: 'Next',
  playerPrevious: 'Previous',
  playerSeek: 'Seek',
  playerVolume: 'Volume',
  playerMute: 'Mute',
  playerUnmute: 'Unmute',
};
