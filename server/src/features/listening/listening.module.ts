import { createRequire } from 'node:module';
import { bind, defineModule } from '../../modules/module.js';
import { songCataloguePort, songDetailSourcesPort } from '../library/library.port.js';
import { ListenBrainzClient } from './listenbrainz/listenbrainz.client.js';
import { ListenBrainzService } from './listenbrainz/listenbrainz.service.js';
import { TokenCipher } from './listenbrainz/token-cipher.js';
import { listeningJobs, submitListenJob } from './listening.jobs.js';
import { listeningPort } from './listening.port.js';
import { ListeningRepository } from './listening.repository.js';
import { listeningRoutes } from './listening.routes.js';
import { listenBrainzLinks, nowPlaying, playQueues, songPlays, songRatings } from './listening.schema.js';
import { ListeningService } from './listening.service.js';

const version = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

export const listeningModule = defineModule({
  name: 'listening',
  summary:
    'Play counts and history, ratings, the play queue that follows the user (web player and Subsonic clients), who plays what now, and scrobbling to ListenBrainz.',
  requires: [songCataloguePort, songDetailSourcesPort],
  provides: [listeningPort],
  tables: [songPlays, songRatings, playQueues, nowPlaying, listenBrainzLinks],
  jobs: [submitListenJob],
  settings: ['LISTENBRAINZ_URL', 'LISTENBRAINZ_RETRY_SECONDS'],
  tags: ['listening'],
  setup({ platform, logger, use }) {
    const { config } = platform;
    const repository = new ListeningRepository(platform.database.db);
    const catalogue = use(songCataloguePort);
    const service = new ListeningService(repository, catalogue, logger);
    const { baseUrl, retrySeconds } = config.listenBrainz;
    const listenBrainz = new ListenBrainzService({
      repository,
      cipher: new TokenCipher(platform.secrets.jwtKey),
      client: baseUrl ? new ListenBrainzClient(baseUrl, { name: 'Encore', version }) : undefined,
      catalogue,
      enqueue: async (listen) => {
        await platform.jobs.send(submitListenJob, listen);
      },
      logger,
    });
    service.onPlayCounted((play) => listenBrainz.playCounted(play));
    use(songDetailSourcesPort).providePlays(async (songId, viewerId) => {
      const plays = (await service.plays(viewerId, [songId])).get(songId);
      return { playCount: plays?.playCount ?? 0, lastPlayedAt: plays?.lastPlayedAt ?? null };
    });
    return {
      ports: [bind(listeningPort, service)],
      routes: listeningRoutes(service, listenBrainz),
      jobs: listeningJobs(listenBrainz, { retrySeconds }),
      internals: { service, repository, listenBrainz },
    };
  },
});
