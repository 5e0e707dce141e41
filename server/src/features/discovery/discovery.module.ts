import { AI_MESSAGES } from '@encore/common/discovery.contract';
import { bind, defineModule } from '../../modules/module.js';
import { aiGenerationGate } from '../../platform/limits/user-limits.js';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { songBrowsePort, songCataloguePort, songDetailSourcesPort, songEventsPort, songFactsPort } from '../library/library.port.js';
import { generatedPlaylistsPort } from '../playlists/playlists.port.js';
import { AnalysisPool } from './analysis/analysis-pool.js';
import { AnalysisService } from './analysis/analysis.service.js';
import {
  analyseSongJob,
  analysisBackfillJob,
  announceSongsChanged,
  discoveryJobs,
  freshPlaylistsJob,
  rankSwitchedOn,
  refreshPlaylistJob,
} from './discovery.jobs.js';
import { similarSongsPort, songLoudnessPort } from './discovery.port.js';
import { DiscoveryRepository } from './discovery.repository.js';
import { discoveryRoutes } from './discovery.routes.js';
import { catalogVersion, songAnalyses } from './discovery.schema.js';
import { DiscoveryService } from './discovery.service.js';
import { ReplayGainFinder } from './replay-gain.js';
import { SimilarSongsFinder } from './similar-songs.js';

export const discoveryModule = defineModule({
  name: 'discovery',
  summary: 'AI playlists: sonic analysis of every song, and playlists generated from a text prompt or "more like this".',
  requires: [songCataloguePort, songEventsPort, songDetailSourcesPort, songFactsPort, songBrowsePort, generatedPlaylistsPort],
  provides: [similarSongsPort, songLoudnessPort],
  tables: [songAnalyses, catalogVersion],
  jobs: [analyseSongJob, analysisBackfillJob, freshPlaylistsJob, refreshPlaylistJob],
  settings: ['LLM_API_URL', 'LLM_API_KEY', 'LLM_MODEL', 'LLM_TIMEOUT_SECONDS', 'ANALYSIS_BACKFILL', 'ANALYSIS_ON_INGEST', 'USER_AI_PER_MINUTE'],
  tags: ['discovery'],
  messages: AI_MESSAGES,
  setup({ platform, logger, use }) {
    const { config, database } = platform;
    const catalogue = use(songCataloguePort);
    const songs = use(songFactsPort);
    const repository = new DiscoveryRepository(database.db);
    // Off the server's thread, at a lower priority, one core while requests are served.
    const pool = new AnalysisPool({ ffmpegPath: async () => (await platform.ffmpeg.info()).path, busy: () => platform.activity.busy() });
    const analysis = new AnalysisService({
      repository,
      storage: platform.storage,
      pool,
      songs,
      songKey: async (songId) => (await catalogue.audioFile(songId))?.storageKey,
      logger,
      onAnalysed: () => announceSongsChanged(platform.jobs),
    });
    const playlists = use(generatedPlaylistsPort);
    playlists.onKeptFresh(async (playlistId) => {
      // The switch is saved either way; without this job the playlist is ranked again with the next song.
      await rankSwitchedOn(platform.jobs, playlistId).catch((error: unknown) =>
        logger.warn({ err: error, playlistId }, 'Could not queue the re-ranking of a playlist switched to Keep fresh'),
      );
    });
    const discovery = new DiscoveryService({ repository, catalog: catalogue, songs, playlists, logger, llm: config.ai.llm });
    // A song added may answer a fresh playlist's prompt once analysed (or at once, when its analysis was kept).
    use(songEventsPort).onSongAdded(
      () => announceSongsChanged(platform.jobs),
      () => announceSongsChanged(platform.jobs),
    );
    if (config.ai.onIngest) {
      use(songEventsPort).onSongAdded(
        async ({ songId }) => {
          await platform.jobs.send(analyseSongJob, { songId });
        },
        // A music folder's thousands of new songs: one backfill goes through every song not yet analysed.
        async () => {
          await platform.jobs.send(analysisBackfillJob, {}, { singletonKey: 'analysis-backfill' });
        },
      );
    }
    const replayGains = new ReplayGainFinder(repository, use(songBrowsePort));
    use(songDetailSourcesPort).provideAnalysis((songId) => analysis.analysisOf(songId));
    use(songDetailSourcesPort).provideReplayGain(async (songId) => (await replayGains.replayGainOf([songId])).get(songId) ?? null);
    return {
      ports: [bind(similarSongsPort, new SimilarSongsFinder(repository)), bind(songLoudnessPort, replayGains)],
      routes: discoveryRoutes(discovery, analysis, aiGenerationGate(new RateLimiter(database.db), config.limits)),
      jobs: discoveryJobs(analysis, { backfill: config.ai.backfill }, { discovery, playlists, jobs: platform.jobs }),
      health: async () => ({ analysis: await analysis.progress() }),
      // Songs uploaded before analysis existed (or while it was off): the backfill catches up at once.
      start: async () => {
        if (config.ai.backfill) await platform.jobs.send(analysisBackfillJob, {}, { singletonKey: 'analysis-backfill' });
      },
      stop: () => pool.close(),
      internals: { analysis, discovery },
    };
  },
});
