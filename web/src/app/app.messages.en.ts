/**
 * The app shell: top bar, Library menu, profile dialog, footer, error page, in English. Its keys
 * are message keys of the app; `{name}` marks a value filled in at run time.
 */
export const appEn = {
  // Throughout the app
  brand: 'Encore',
  checkingSession: 'Checking your session…',
  toastRegionLabel: 'Notifications',
  skipToContent: 'Skip to content',

  // Top bar, Library dropdown, profile dialog
  homeLinkLabel: 'Encore home',
  mainNavigation: 'Main navigation',
  navHome: 'Home',
  navAiPlaylist: 'AI Playlist',
  navUpload: 'Upload',
  navSong2Clip: 'Song2Clip',
  navLibrary: 'Library',
  navGetStarted: 'Get Started',
  openMenu: 'Open menu',
  openProfile: 'Open profile',
  libraryAllMusic: 'All Music',
  libraryMyMusic: 'My Music',
  libraryFavorites: 'Favorites',
  libraryPlaylists: 'Playlists',
  libraryPlaylistsDescription: 'Your custom playlists in one place',

  // Profile page (/profile)
  profileTitle: 'User Profile',
  profileSubtitle: 'Manage your account settings and preferences',
  profileLoading: 'Loading profile…',
  profileViewProfile: 'View Profile',
  profileMyMusic: 'My Music',
  profileUploadMusic: 'Upload Music',
  logOut: 'Log Out',

  // Footer
  footerBlurb:
    'Encore transforms images into unique musical experiences. Upload your songs, shape playlists with AI and turn every track into a clip worth sharing.',
  footerFollow: 'Follow Encore',
  footerSocialWebsite: 'Website',
  footerSocialNews: 'News feed',
  footerSocialCommunity: 'Community chat',
  footerSocialMail: 'Newsletter',
  footerSourceCode: 'Source code',
  footerProduct: 'Product',
  footerFeatures: 'Features',
  footerPricing: 'Pricing',
  footerApi: 'API',
  footerIntegrations: 'Integrations',
  footerUpdates: 'Updates',
  footerResources: 'Resources',
  footerDocumentation: 'Documentation',
  footerTutorials: 'Tutorials',
  footerBlog: 'Blog',
  footerCommunity: 'Community',
  footerHelpCenter: 'Help Center',
  footerCompany: 'Company',
  footerAbout: 'About',
  footerCareers: 'Careers',
  footerPress: 'Press',
  footerContact: 'Contact',
  footerPrivacyPolicy: 'Privacy Policy',
  footerTerms: 'Terms',
  footerPrivacy: 'Privacy',
  footerCookies: 'Cookies',
  footerCopyright: '© {year} Encore. All rights reserved.',

  // Unexpected failure while showing a page
  errorTitle: 'Something went wrong',
  errorBody: 'An unexpected error stopped this page. Reload to try again.',
  reload: 'Reload',
};
