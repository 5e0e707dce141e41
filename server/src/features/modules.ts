import type { AnyModule } from '../modules/module.js';
import { adminModule } from './admin/admin.module.js';
import { authModule } from './auth/auth.module.js';
import { bookmarksModule } from './bookmarks/bookmarks.module.js';
import { browseModule } from './browse/browse.module.js';
import { clipsModule } from './clips/clips.module.js';
import { discoveryModule } from './discovery/discovery.module.js';
import { libraryModule } from './library/library.module.js';
import { listeningModule } from './listening/listening.module.js';
import { lyricsModule } from './lyrics/lyrics.module.js';
import { musicFoldersModule } from './music-folders/music-folders.module.js';
import { playlistsModule } from './playlists/playlists.module.js';
import { radioModule } from './radio/radio.module.js';
import { sharingModule } from './sharing/sharing.module.js';
import { smartPlaylistsModule } from './smart-playlists/smart-playlists.module.js';
import { subsonicModule } from './subsonic/subsonic.module.js';

/**
 * Every feature module of Encore. A new feature adds its folder and one line here; the app and
 * the worker start them after the providers of what each requires, whatever this order.
 */
export const encoreModules: readonly AnyModule[] = [
  authModule,
  libraryModule,
  sharingModule,
  playlistsModule,
  lyricsModule,
  clipsModule,
  discoveryModule,
  musicFoldersModule,
  subsonicModule,
  listeningModule,
  adminModule,
  browseModule,
  bookmarksModule,
  radioModule,
  smartPlaylistsModule,
];
