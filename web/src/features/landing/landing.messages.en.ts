/**
 * The landing page, in English. Its keys are message keys of the app; `{name}` marks a value
 * filled in at run time.
 */
export const landingEn = {
  // Landing page
  landingTitle: 'Your Music, Elevated',
  landingBadge: 'Next-Gen Music Management',
  landingHeadlineLead: 'Your Music,',
  landingHeadlineAccent: 'Elevated',
  landingTagline: 'Manage, create and enjoy your music like never before, with AI-enhanced tools for playlists, lyrics and clips.',
  landingGetStarted: 'Get Started',
  landingFeaturesHeading: 'Everything your music needs',
  landingProgressLabel: 'Featured tool {index} of {count}',
  featureUploadTitle: 'Upload Songs',
  featureUploadDescription: 'Upload and organize your music collection in one place.',
  featureAiPlaylistTitle: 'AI Playlist Creator',
  featureAiPlaylistDescription: "Type a prompt such as 'chill coding beats' and get a playlist you can edit and save.",
  featureLyricsTitle: 'Transcribe Lyrics',
  featureLyricsDescription: 'Automatic transcription of your songs, ready for karaoke.',
  featureSong2ClipTitle: 'Song2Clip',
  featureSong2ClipDescription: 'Turn a song into a clip with images, synced lyrics and effects.',
};
