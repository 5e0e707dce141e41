import { adminEn } from '../../features/admin/admin.messages.en';
import { appEn } from '../../app/app.messages.en';
import { authEn } from '../../features/auth/auth.messages.en';
import { browseEn } from '../../features/browse/browse.messages.en';
import { clipsEn } from '../../features/clips/clips.messages.en';
import { discoveryEn } from '../../features/discovery/discovery.messages.en';
import { landingEn } from '../../features/landing/landing.messages.en';
import { libraryEn } from '../../features/library/library.messages.en';
import { listeningEn } from '../../features/listening/listening.messages.en';
import { lyricsEn } from '../../features/lyrics/lyrics.messages.en';
import { musicFoldersEn } from '../../features/music-folders/music-folders.messages.en';
import { notFoundEn } from '../../features/not-found/not-found.messages.en';
import { radioEn } from '../../features/radio/radio.messages.en';
import { playlistsEn } from '../../features/playlists/playlists.messages.en';
import { smartPlaylistsEn } from '../../features/playlists/smart/smart-playlists.messages.en';
import { sharingEn } from '../../features/sharing/sharing.messages.en';
import { uploadEn } from '../../features/upload/upload.messages.en';
import { playerEn } from '../../player/player.messages.en';
import { commonEn } from './common.messages.en';
import type { Translation } from './translation.types';

/**
 * The English catalogues, each beside the code that shows its texts; together they are the
 * message keys. A feature with texts adds its catalogue here and in `hebrewCatalogues` (catalogue.he.ts).
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

export type KeysOf<Catalogues> = { [Name in keyof Catalogues]: keyof Catalogues[Name] }[keyof Catalogues];

/** Keys that more than one of `Catalogues` defines (`never` when each key has one home). */
type DuplicateKeys<Catalogues> = {
  [Name in keyof Catalogues]: keyof Catalogues[Name] & KeysOf<Omit<Catalogues, Name>>;
}[keyof Catalogues];

export type MessageKey = Extract<KeysOf<EnglishCatalogues>, string>;
/** A language's texts: every key, and the plural forms of its own (see `Translation`). */
export type Catalogue = Translation<Record<MessageKey, string>>;

/**
 * One catalogue of all of `catalogues`. A key that two of them define is a type error here (the
 * call then asks for an argument naming the keys), as a later catalogue would hide the text.
 */
export function merge<Catalogues extends Record<string, object>>(
  catalogues: Catalogues,
  ..._definedTwice: [DuplicateKeys<Catalogues>] extends [never] ? [] : [duplicates: DuplicateKeys<Catalogues>]
): { [Key in KeysOf<Catalogues>]: string } {
  return Object.assign({}, ...Object.values(catalogues));
}

export const en: Record<MessageKey, string> = merge(englishCatalogues);
// Hebrew is in catalogue.he.ts, loaded only when chosen (the landing page's weight budget).
