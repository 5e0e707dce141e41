import { adminHe } from '../features/admin/admin.messages.he';
import { appHe } from './app.messages.he';
import { authHe } from '../features/auth/auth.messages.he';
import { browseHe } from '../features/browse/browse.messages.he';
import { clipsHe } from '../features/clips/clips.messages.he';
import { discoveryHe } from '../features/discovery/discovery.messages.he';
import { landingHe } from '../features/landing/landing.messages.he';
import { libraryHe } from '../features/library/library.messages.he';
import { listeningHe } from '../features/listening/listening.messages.he';
import { lyricsHe } from '../features/lyrics/lyrics.messages.he';
import { musicFoldersHe } from '../features/music-folders/music-folders.messages.he';
import { notFoundHe } from '../features/not-found/not-found.messages.he';
import { radioHe } from '../features/radio/radio.messages.he';
import { playlistsHe } from '../features/playlists/playlists.messages.he';
import { smartPlaylistsHe } from '../features/playlists/smart/smart-playlists.messages.he';
import { sharingHe } from '../features/sharing/sharing.messages.he';
import { uploadHe } from '../features/upload/upload.messages.he';
import { playerHe } from '../player/player.messages.he';
import { commonHe } from '../lib/i18n/common.messages.he';
import { merge, type Catalogue } from '../lib/i18n/catalogue';
import type { EnglishCatalogues } from './catalogue.en';
import type { Translation } from '../lib/i18n/translation.types';

/**
 * Hebrew, in a chunk of its own: the app downloads it only for a visitor who reads Hebrew (or
 * chooses it), so an English landing page does not carry it (i18n.store's `loadLanguage`).
 */
/** The Hebrew catalogues: a catalogue or a key missing here fails the type check. */
export const hebrewCatalogues = {
  common: commonHe,
  app: appHe,
  admin: adminHe,
  player: playerHe,
  auth: authHe,
  browse: browseHe,
  clips: clipsHe,
  discovery: discoveryHe,
  landing: landingHe,
  library: libraryHe,
  listening: listeningHe,
  lyrics: lyricsHe,
  'music-folders': musicFoldersHe,
  'not-found': notFoundHe,
  playlists: playlistsHe,
  radio: radioHe,
  'smart-playlists': smartPlaylistsHe,
  sharing: sharingHe,
  upload: uploadHe,
} satisfies { [Name in keyof EnglishCatalogues]: Translation<EnglishCatalogues[Name]> };

export const he: Catalogue = merge(hebrewCatalogues);
