import { Disc3, Heart, Library, ListMusic, MicVocal, Radio, Tags, UserRound, type LucideIcon } from 'lucide-react';
import type { MessageKey } from '../lib/i18n/catalogue';

export interface NavEntry {
  to: string;
  label: MessageKey;
  description?: MessageKey;
  icon?: LucideIcon;
}

/** The signed-in top bar links (SPEC 2). */
export const MAIN_LINKS: readonly NavEntry[] = [
  { to: '/', label: 'navHome' },
  { to: '/ai-playlist', label: 'navAiPlaylist' },
  { to: '/upload', label: 'navUpload' },
  { to: '/song2clip', label: 'navSong2Clip' },
];

/** The admin page's link, shown to admins only after the main links (issue 29). */
export const ADMIN_LINK: NavEntry = { to: '/admin', label: 'navAdmin' };

/** The Library dropdown's four entries (SPEC 2), then browsing by artist, album and genre (issue 38), and internet radio (issue 41). */
export const LIBRARY_LINKS: readonly NavEntry[] = [
  { to: '/music', label: 'libraryAllMusic', description: 'libraryAllMusicDescription', icon: Library },
  { to: '/music?owner=true', label: 'libraryMyMusic', description: 'libraryMyMusicDescription', icon: UserRound },
  {
    to: '/music?owner=true&favorites=true',
    label: 'libraryFavorites',
    description: 'libraryFavoritesDescription',
    icon: Heart,
  },
  { to: '/playlists', label: 'libraryPlaylists', description: 'libraryPlaylistsDescription', icon: ListMusic },
  { to: '/artists', label: 'libraryArtists', description: 'libraryArtistsDescription', icon: MicVocal },
  { to: '/albums', label: 'libraryAlbums', description: 'libraryAlbumsDescription', icon: Disc3 },
  { to: '/genres', label: 'libraryGenres', description: 'libraryGenresDescription', icon: Tags },
  { to: '/radio', label: 'libraryRadio', description: 'libraryRadioDescription', icon: Radio },
];
