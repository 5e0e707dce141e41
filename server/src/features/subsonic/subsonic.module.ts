import { createRequire } from 'node:module';
import { defineModule } from '../../modules/module.js';
import { accountAdministrationPort, accountsPort, clientAuthenticationPort } from '../auth/auth.port.js';
import { accountRemovalPort } from '../admin/admin.port.js';
import { bookmarksPort } from '../bookmarks/bookmarks.port.js';
import { radioStationsPort } from '../radio/radio.port.js';
import { shareLinksPort } from '../sharing/sharing.port.js';
import { songBrowsePort, songCataloguePort } from '../library/library.port.js';
import { songLyricsPort } from '../lyrics/lyrics.port.js';
import { userPlaylistsPort } from '../playlists/playlists.port.js';
import { userSmartPlaylistsPort } from '../smart-playlists/smart-playlists.port.js';
import { similarSongsPort, songLoudnessPort } from '../discovery/discovery.port.js';
import { listeningPort } from '../listening/listening.port.js';
import { annotationEndpoints } from './subsonic-annotation.routes.js';
import { bookmarkEndpoints } from './subsonic-bookmarks.routes.js';
import { browseEndpoints } from './subsonic-browse.routes.js';
import { SubsonicEntries } from './subsonic-entries.js';
import type { SubsonicDeps } from './subsonic-endpoint.routes.js';
import { musicFoldersPort } from '../music-folders/music-folders.port.js';
import { mediaEndpoints } from './subsonic-media.routes.js';
import { playlistEndpoints } from './subsonic-playlists.routes.js';
import { radioEndpoints } from './subsonic-radio.routes.js';
import { shareEndpoints } from './subsonic-shares.routes.js';
import { scanEndpoints } from './subsonic-scan.routes.js';
import { similarEndpoints } from './subsonic-similar.routes.js';
import { systemEndpoints } from './subsonic-system.routes.js';
import { userEndpoints } from './subsonic-users.routes.js';
import { subsonicRoutes } from './subsonic.routes.js';

const serverVersion = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

export const subsonicModule = defineModule({
  name: 'subsonic',
  summary:
    'The OpenSubsonic API under /rest for phone and desktop apps: the same library, favourites, playlists and lyrics, signed in with API keys or app passwords.',
  requires: [
    clientAuthenticationPort,
    accountsPort,
    songCataloguePort,
    songBrowsePort,
    songLyricsPort,
    userPlaylistsPort,
    userSmartPlaylistsPort,
    musicFoldersPort,
    similarSongsPort,
    songLoudnessPort,
    listeningPort,
    bookmarksPort,
    shareLinksPort,
    radioStationsPort,
    accountAdministrationPort,
    accountRemovalPort,
  ],
  provides: [],
  tables: [],
  jobs: [],
  settings: ['USER_MAX_TRANSCODES', 'TRANSCODE_IDLE_SECONDS'],
  tags: [],
  setup({ platform, logger, publicUrl, use }) {
    const browse = use(songBrowsePort);
    const listening = use(listeningPort);
    const loudness = use(songLoudnessPort);
    const deps: SubsonicDeps = {
      clientAuthentication: use(clientAuthenticationPort),
      accounts: use(accountsPort),
      catalogue: use(songCataloguePort),
      browse,
      lyrics: use(songLyricsPort),
      playlists: use(userPlaylistsPort),
      smartPlaylists: use(userSmartPlaylistsPort),
      listening,
      entries: new SubsonicEntries(browse, listening, (songIds) => loudness.replayGainOf(songIds)),
      storage: platform.storage,
      musicFolders: platform.config.musicFolders.paths,
      serverVersion,
      helpUrl: new URL('/profile', publicUrl).toString(),
      logger,
    };
    const endpoints = [
      ...systemEndpoints(),
      ...browseEndpoints(deps),
      ...mediaEndpoints(deps, platform.ffmpeg, platform.config.transcodeStreams),
      ...playlistEndpoints(deps),
    ];
    endpoints.push(...scanEndpoints(use(musicFoldersPort)));
    endpoints.push(...similarEndpoints(deps, use(similarSongsPort)));
    endpoints.push(...annotationEndpoints(deps));
    endpoints.push(...bookmarkEndpoints(deps, use(bookmarksPort)));
    endpoints.push(...shareEndpoints(deps, use(shareLinksPort)));
    endpoints.push(...userEndpoints(deps, use(accountAdministrationPort), use(accountRemovalPort)));
    endpoints.push(...radioEndpoints(use(radioStationsPort)));
    return { rootRoutes: subsonicRoutes(deps, endpoints) };
  },
});
