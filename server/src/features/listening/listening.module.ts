import { bind, defineModule } from '../../modules/module.js';
import { songCataloguePort } from '../library/library.port.js';
import { listeningPort } from './listening.port.js';
import { ListeningRepository } from './listening.repository.js';
import { listeningRoutes } from './listening.routes.js';
import { listenBrainzLinks, nowPlaying, playQueues, songPlays, songRatings } from './listening.schema.js';
import { ListeningService } from './listening.service.js';

export const listeningModule = defineModule({
  name: 'listening',
  summary: 'Play counts, ratings, the play queue that follows the user (web player and Subsonic clients) and who plays what now.',
  requires: [songCataloguePort],
  provides: [listeningPort],
  tables: [songPlays, songRatings, playQueues, nowPlaying, listenBrainzLinks],
  jobs: [],
  settings: [],
  tags: ['listening'],
  setup({ platform, use }) {
    const repository = new ListeningRepository(platform.database.db);
    const service = new ListeningService(repository, use(songCataloguePort));
    return {
      ports: [bind(listeningPort, service)],
      routes: listeningRoutes(service),
      internals: { service, repository },
    };
  },
});
