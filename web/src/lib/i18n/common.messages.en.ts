import { limitMessagesEn } from '@encore/common/limit-messages';
import { ruleMessagesEn } from '@encore/common/messages.en';

/**
 * Texts that several parts of the app show: shared words, toasts, the rules the server checks too,
 * in English. Its keys are message keys of the app; `{name}` marks a value filled in at run time.
 */
export const commonEn = {
  ...ruleMessagesEn,
  // The per-user limits' answers (common/limit-messages.ts): an answer of the server is shown in the user's language
  ...limitMessagesEn,

  // Throughout the app
  documentTitle: '{page} · Encore',
  loading: 'Loading…',
  close: 'Close',

  // Top bar, Library dropdown, profile dialog
  libraryAllMusicDescription: 'Explore the entire music collection',
  libraryMyMusicDescription: "Manage the songs you've uploaded",
  libraryFavoritesDescription: 'Access your liked tracks quickly',

  // Profile page (/profile)
  languageLabel: 'Language',
  languageEnglish: 'English',
  languageHebrew: 'עברית',

  // Auth screen
  placeholderEmail: 'you@example.com',

  // Forgot password view
  fieldEmailAddress: 'Email Address',
  sending: 'Sending...',

  // Shared words of the library pages
  tryAgain: 'Try Again',
  cancel: 'Cancel',
  clear: 'Clear',
  unknownArtist: 'Unknown artist',
  nowPlaying: 'Now playing',
  backToMusic: 'Back to Music',

  // Failures of the files calls (SPEC 8 fallbacks; the server's message is preferred)
  fetchImageFailed: 'Failed to fetch image',
  fetchMusicFilesFailed: 'Failed to fetch music files',
  fetchMusicFileFailed: 'Failed to fetch music file',

  // Music collection (/music)
  musicSearchLabel: 'Search songs',
  musicSearchPlaceholder: 'Title, artist or album',
  clearSearch: 'Clear Search',
  playSong: 'Play {title}',
  stopSong: 'Stop {title}',

  // Player bar
  playerPlay: 'Play',
  playerPause: 'Pause',
  playerClose: 'Close player',
  playerSeekValue: '{elapsed} of {total}',

  // Song page (/music/{id})
  songLoading: 'Loading Song...',
  songErrorTitle: 'Error Loading Song',
  songNotFoundTitle: 'Song Not Found',
  songNotFoundBody: "The song you're looking for could not be found.",
  songSeek: 'Song position',

  // Playlists (/playlists, /playlists/{id}, /create-playlist, and Add to Playlist on song pages)
  playlistSongCount_one: '1 song',
  playlistSongCount_other: '{count} songs',
  playlistLoadFailed: 'Failed to load the playlist',
  backToPlaylists: 'Back to Playlists',
  playAll: 'Play All',
  playingSongs_one: 'Playing 1 song',
  playingSongs_other: 'Playing {count} songs',
  viewPlaylist: 'View Playlist',

  // AI playlists (/ai-playlist), the AI badge on playlists, the song page's analysis and More like this
  aiGeneratedBadge: 'AI Generated',

  // Not found page
  backToHome: 'Back to Home',
};
