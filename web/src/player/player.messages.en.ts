/**
 * The player bar, in English. Its keys are message keys of the app; `{name}` marks a value filled
 * in at run time.
 */
export const playerEn = {
  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchSongUrlFailed: 'Failed to fetch song URL',
  fetchSongFailed: 'Failed to load the song',
  fetchLoudnessFailed: 'Failed to load the song’s loudness',
  countPlayFailed: 'Failed to count the play',
  loadQueueFailed: 'Failed to load your play queue',
  saveQueueFailed: 'Failed to save your play queue',
  loadHistoryFailed: 'Failed to load your listening history',

  // Player bar
  playerRegion: 'Player',
  playerNext: 'Next',
  playerPrevious: 'Previous',
  playerSeek: 'Seek',
  playerVolume: 'Volume',
  playerMute: 'Mute',
  playerUnmute: 'Unmute',

  // Queue (issue 30)
  playerQueue: 'Queue',
  queueTitle: 'Play queue',
  queueDescription: 'What plays next. Drag a song, or use its arrow buttons, to change the order.',
  queueEmpty: 'Nothing in the queue.',
  queueUpNext: 'Up next',
  queuePlayed: 'Played',
  queuePlaySong: 'Play {title}',
  queueMoveUp: 'Move {title} up',
  queueMoveDown: 'Move {title} down',
  queueDrag: 'Reorder {title}',
  queueRemove: 'Remove {title} from the queue',
  queueClear: 'Clear queue',
  queueMovedTo: '{title} moved to position {position} of {total}',
  queueRemoved: '{title} removed from the queue',
  playerShuffle: 'Shuffle',
  playerRepeatOff: 'Repeat: off',
  playerRepeatAll: 'Repeat: all',
  playerRepeatOne: 'Repeat: this song',
  songPlayNext: 'Play next',
  songAddToQueue: 'Add to queue',
  songQueueMenu: 'Queue options for {title}',
  queueAddedNext: 'Plays next: {title}',
  queueAddedLast: 'Added to the queue: {title}',

  // Player settings (issue 30)
  playerSettings: 'Player settings',
  playerMore: 'More',
  settingsNormalisation: 'Loudness normalisation',
  settingsNormalisationOff: 'Off',
  settingsNormalisationTrack: 'Track',
  settingsNormalisationAlbum: 'Album',
  settingsNormalisationHelp:
    'Track plays every song at the same loudness; Album keeps the differences between the songs of one album. Nothing is made loud enough to clip.',
  settingsTarget: 'Target loudness',
  settingsPreamp: 'Pre-amp',
  settingsCrossfade: 'Crossfade',
  settingsCrossfadeValue: '{value} s',
  settingsCrossfadeOff: 'Off (gapless)',
  settingsGainNow: 'This song: {value}',

  // History on the music page (issue 30)
  recentlyPlayed: 'Recently played',
  mostPlayed: 'Most played',
  playCountLabel: 'Played {count}×',

  // Playlists saved for offline listening (issue 30)
  offlineSave: 'Save for offline',
  offlineSaving: 'Saving {done} of {total}…',
  offlineSaved: 'Saved for offline · {size}',
  offlineRemove: 'Remove offline copy',
  offlineSavedToast: 'Saved for offline listening',
  offlineRemovedToast: 'Offline copy removed',
  offlineSaveFailed: 'Saving for offline failed',
  offlineUnavailable: 'This browser cannot save songs for offline listening.',

  // Long songs resume where they were left (issue 41)
  bookmarkResumed: 'Resumed at {time}, where you stopped',
  bookmarkStartOver: 'Start over',
  bookmarkFailed: 'The place in the song could not be kept',
};
