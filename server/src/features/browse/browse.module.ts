import { defineModule } from '../../modules/module.js';
import { similarSongsPort } from '../discovery/discovery.port.js';
import { songBrowsePort, songCataloguePort } from '../library/library.port.js';
import { listeningPort } from '../listening/listening.port.js';
import { browseRoutes } from './browse.routes.js';
import { BrowseService } from './browse.service.js';

export const browseModule = defineModule({
  name: 'browse',
  summary: 'Browse like a collector: artists, albums (in disc and track order, downloadable as one zip) and genres, the model the Subsonic API lists.',
  requires: [songBrowsePort, songCataloguePort, listeningPort, similarSongsPort],
  provides: [],
  tables: [],
  jobs: [],
  settings: [],
  tags: ['browse'],
  setup({ platform, use }) {
    const service = new BrowseService({
      browse: use(songBrowsePort),
      catalogue: use(songCataloguePort),
      listening: use(listeningPort),
      similar: use(similarSongsPort),
      storage: platform.storage,
    });
    return { routes: browseRoutes(service) };
  },
});
