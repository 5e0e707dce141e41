import { adminEn } from '../features/admin/admin.messages.en';
import { appEn } from './app.messages.en';
import { authEn } from '../features/auth/auth.messages.en';
import { browseEn } from '../features/browse/browse.messages.en';
import { clipsEn } from '../features/clips/clips.messages.en';
import { discoveryEn } from '../features/discovery/discovery.messages.en';
import { landingEn } from '../features/landing/landing.messages.en';
import { libraryEn } from '../features/library/library.messages.en';
import { listeningEn } from '../features/listening/listening.messages.en';
import { lyricsEn } from '../features/lyrics/lyrics.messages.en';
import { musicFoldersEn } from '../features/music-folders/music-folders.messages.en';
import { notFoundEn } from '../features/not-found/not-found.messages.en';
import { radioEn } from '../features/radio/radio.messages.en';
import { playlistsEn } from '../features/playlists/playlists.messages.en';
import { smartPlaylistsEn } from '../features/playlists/smart/smart-playlists.messages.en';
import { sharingEn } from '../features/sharing/sharing.messages.en';
import { uploadEn } from '../features/upload/upload.messages.en';
import { playerEn } from '../player/player.messages.en';
import { commonEn } from '../lib/i18n/common.messages.en';
import { merge, type MessageKey } from '../lib/i18n/catalogue';

/**
 * The English catalogues, each beside the code that shows its texts; together they are the
 * message keys. A feature with texts adds its catalogue here and in `hebrewCatalogues`
 * (catalogue.he.ts). Assembled here, where the app's features are, so that lib/i18n names none:
 * it learns the keys from the declaration below.
 */
export const englishCatalogues = {
  common: commonEn,
  app: appEn,
  admin: adminEn,
  player: playerEn,
  auth: authEn,
  browse: browseEn,
  clips: clipsEn,
  discovery: discoveryEn,
  landing: landingEn,
  library: libraryEn,
  listening: listeningEn,
  lyrics: lyricsEn,
  'music-folders': musicFoldersEn,
  'not-found': notFoundEn,
  playlists: playlistsEn,
  radio: radioEn,
  'smart-playlists': smartPlaylistsEn,
  sharing: sharingEn,
  upload: uploadEn,
};

export type EnglishCatalogues = typeof englishCatalogues;

declare module '../lib/i18n/catalogue' {
  // Declaration merging fills lib's empty AppCatalogues with these catalogues' types.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a merged declaration, not an empty type
  interface AppCatalogues extends EnglishCatalogues {}
}

export const en: Record<MessageKey, string> = merge(englishCatalogues);
// Hebrew is in catalogue.he.ts, loaded only when chosen (the landing page's weight budget).
