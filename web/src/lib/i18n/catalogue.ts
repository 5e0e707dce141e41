import { adminEn } from '../../features/admin/admin.messages.en';
import { adminHe } from '../../features/admin/admin.messages.he';
import { appEn } from '../../app/app.messages.en';
import { appHe } from '../../app/app.messages.he';
import { authEn } from '../../features/auth/auth.messages.en';
import { authHe } from '../../features/auth/auth.messages.he';
import { browseEn } from '../../features/browse/browse.messages.en';
import { browseHe } from '../../features/browse/browse.messages.he';
import { clipsEn } from '../../features/clips/clips.messages.en';
import { clipsHe } from '../../features/clips/clips.messages.he';
import { discoveryEn } from '../../features/discovery/discovery.messages.en';
import { discoveryHe } from '../../features/discovery/discovery.messages.he';
import { landingEn } from '../../features/landing/landing.messages.en';
import { landingHe } from '../../features/landing/landing.messages.he';
import { libraryEn } from '../../features/library/library.messages.en';
import { libraryHe } from '../../features/library/library.messages.he';
import { listeningEn } from '../../features/listening/listening.messages.en';
import { listeningHe } from '../../features/listening/listening.messages.he';
import { lyricsEn } from '../../features/lyrics/lyrics.messages.en';
import { lyricsHe } from '../../features/lyrics/lyrics.messages.he';
import { musicFoldersEn } from '../../features/music-folders/music-folders.messages.en';
import { musicFoldersHe } from '../../features/music-folders/music-folders.messages.he';
import { notFoundEn } from '../../features/not-found/not-found.messages.en';
import { notFoundHe } from '../../features/not-found/not-found.messages.he';
import { playlistsEn } from '../../features/playlists/playlists.messages.en';
import { playlistsHe } from '../../features/playlists/playlists.messages.he';
import { sharingEn } from '../../features/sharing/sharing.messages.en';
import { sharingHe } from '../../features/sharing/sharing.messages.he';
import { uploadEn } from '../../features/upload/upload.messages.en';
import { uploadHe } from '../../features/upload/upload.messages.he';
import { playerEn } from '../../player/player.messages.en';
import { playerHe } from '../../player/player.messages.he';
import { commonEn } from './common.messages.en';
import { commonHe } from './common.messages.he';
import type { Translation } from './translation.types';

/**
 * The English catalogues, each beside the code that shows its texts; together they are the
 * message keys. A feature with texts adds its catalogue here and in `hebrewCatalogues`.
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
  sharing: sharingEn,
  upload: uploadEn,
};

type EnglishCatalogues = typeof englishCatalogues;

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
  sharing: sharingHe,
  upload: uploadHe,
} satisfies { [Name in keyof EnglishCatalogues]: Translation<EnglishCatalogues[Name]> };

type KeysOf<Catalogues> = { [Name in keyof Catalogues]: keyof Catalogues[Name] }[keyof Catalogues];

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
function merge<Catalogues extends Record<string, object>>(
  catalogues: Catalogues,
  ..._definedTwice: [DuplicateKeys<Catalogues>] extends [never] ? [] : [duplicates: DuplicateKeys<Catalogues>]
): { [Key in KeysOf<Catalogues>]: string } {
  return Object.assign({}, ...Object.values(catalogues));
}

export const en: Record<MessageKey, string> = merge(englishCatalogues);
export const he: Catalogue = merge(hebrewCatalogues);
