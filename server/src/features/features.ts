import type { MailMessage } from '../platform/mail/mail.types.js';
import { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import { AuthRepository } from './auth/auth.repository.js';
import { AuthService } from './auth/auth.service.js';
import { GoogleVerifier } from './auth/google-verifier.js';
import { SessionTokens } from './auth/session-tokens.js';
import type { AnyJobDefinition } from '../platform/jobs/jobs.types.js';
import { mailJobs, sendMailJob } from '../platform/mail/mail.jobs.js';
import { tasksJobs } from '../platform/tasks/tasks.jobs.js';
import { authJobs, passwordResetRequestJob } from './auth/auth.jobs.js';
import { maintenanceJobs } from './maintenance/maintenance.jobs.js';
import type { Logger } from '../platform/logger.js';
import { IngestService, PRESIGNED_PUT_TTL_SECONDS } from './library/ingest/ingest.service.js';
import { StorageCleanup } from './library/storage-cleanup.service.js';
import { uploadDeadlineMs } from '../config.js';
import { TEMP_FILE_MIN_AGE_MS, type Platform } from '../platform/platform.js';
import { LibraryRepository } from './library/library.repository.js';
import { LibraryService, PLAY_URL_TTL_SECONDS } from './library/library.service.js';
import { PlaylistsRepository } from './playlists/playlists.repository.js';
import { PlaylistsService } from './playlists/playlists.service.js';
import { SharingRepository } from './sharing/sharing.repository.js';
import { SharingService } from './sharing/sharing.service.js';
import { LyricsRepository } from './lyrics/lyrics.repository.js';
import { LyricsService } from './lyrics/lyrics.service.js';
import { LrclibClient } from './lyrics/lookup/lrclib.client.js';
import { LyricsLookupService } from './lyrics/lookup/lyrics-lookup.service.js';
import { EmbeddedLyricsService } from './lyrics/embedded/embedded-lyrics.service.js';
import { lyricsJobs, transcribeLyricsJob } from './lyrics/lyrics.jobs.js';
import { OpenAiTranscriptionEngine } from './lyrics/transcription/openai.engine.js';
import { SongAudio } from './lyrics/transcription/song-audio.js';
import { SongUrlVerifier } from './lyrics/transcription/song-url.js';
import type { TranscriptionEngine } from './lyrics/transcription/transcription-engine.js';
import { TranscriptionService } from './lyrics/transcription/transcription.service.js';
import { LocalWhisperEngine } from './lyrics/transcription/whisper-local.engine.js';
import { storageOrigins } from '../platform/storage/storage-origins.js';
import type { Config } from '../config.js';
import { CLIP_LIMITS } from '@encore/common/clips.contract';
import { ClipsRepository } from './clips/clips.repository.js';
import { ClipsService } from './clips/clips.service.js';
import { clipsJobs } from './clips/clips.jobs.js';
import { AnalysisService } from './discovery/analysis/analysis.service.js';
import { analyseSongJob, discoveryJobs } from './discovery/discovery.jobs.js';
import { DiscoveryRepository } from './discovery/discovery.repository.js';
import { DiscoveryService } from './discovery/discovery.service.js';

/** Every feature's service, wired once from the platform; routes and job handlers use these. */
export interface Features {
  auth: AuthService;
  library: LibraryService;
  ingest: IngestService;
  storageCleanup: StorageCleanup;
  sharing: SharingService;
  playlists: PlaylistsService;
  lyrics: LyricsService;
  lyricsLookup: LyricsLookupService;
  transcription: TranscriptionService;
  embeddedLyrics: EmbeddedLyricsService;
  songUrls: SongUrlVerifier;
  clips: ClipsService;
  analysis: AnalysisService;
  discovery: DiscoveryService;
}

export function createFeatures(platform: Platform, logger: Logger): Features {
  const { config, database, jobs, secrets, storage, ffmpeg } = platform;
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const enqueueMail = async (message: MailMessage) => {
    await jobs.send(sendMailJob, message);
  };
  const rateLimiter = new RateLimiter(database.db);
  const auth = new AuthService({
    repository: new AuthRepository(database.db),
    tokens: new SessionTokens(secrets.jwtKey, { long: config.jwtExpiresIn, short: config.jwtShortExpiresIn }),
    google: new GoogleVerifier(config.google.clientId, config.google.jwksUrl),
    rateLimiter,
    limits: config.rateLimits,
    enqueueMail,
    enqueueResetRequest: async (request) => {
      await jobs.send(passwordResetRequestJob, request);
    },
    publicUrl,
  });
  const libraryRepository = new LibraryRepository(database.db);
  const library = new LibraryService({ repository: libraryRepository, storage, logger });
  const ingest = new IngestService({
    repository: libraryRepository,
    library,
    storage,
    logger,
    maxUploadBytes: config.maxUploadBytes,
    tagTimeoutMs: 10_000,
    // The tags were read once, by the upload: its lyrics are kept from them at once.
    onSongAdded: async (songId, tags) => {
      await embeddedLyrics.adopt(songId, tags.lyricsTags);
    },
    onIngested: config.ai.onIngest
      ? async (songId) => {
          await jobs.send(analyseSongJob, { songId });
        }
      : undefined,
  });
  const storageCleanup = new StorageCleanup({
    repository: libraryRepository,
    storage,
    logger,
    uploadGraceMs: PRESIGNED_PUT_TTL_SECONDS * 1000 + uploadDeadlineMs(config) + 60 * 60 * 1000,
    orphanGraceMs: 60 * 60 * 1000,
  });
  const sharing = new SharingService({
    repository: new SharingRepository(database.db),
    songs: library,
    rateLimiter,
    enqueueMail,
    publicUrl,
    linkTtlDays: 30,
    sendsPerHour: 20,
    mediaTtlSeconds: PLAY_URL_TTL_SECONDS,
  });
  const playlists = new PlaylistsService(new PlaylistsRepository(database.db), library);
  const lyricsRepository = new LyricsRepository(database.db);
  const lyrics = new LyricsService(lyricsRepository);
  const lookupUrl = config.lyricsLookup.baseUrl;
  const lyricsLookup = new LyricsLookupService(lyrics, lookupUrl ? new LrclibClient({ baseUrl: lookupUrl, timeoutMs: config.lyricsLookup.timeoutMs }) : undefined);
  const transcription = new TranscriptionService({
    lyrics,
    repository: lyricsRepository,
    tasks: platform.tasks,
    job: transcribeLyricsJob,
    engine: transcriptionEngine(config),
    audio: new SongAudio({ storage, ffmpeg: platform.ffmpeg }),
    timeoutMs: config.transcription.timeoutMs,
    logger,
  });
  const embeddedLyrics = new EmbeddedLyricsService({ lyrics, repository: lyricsRepository, storage, logger });
  const songUrls = new SongUrlVerifier({
    storage,
    publicOrigin: new URL(publicUrl).origin,
    storageOrigins: storageOrigins(config),
    songIdByStorageKey: (key) => lyricsRepository.findSongIdByStorageKey(key),
  });
  const clips = new ClipsService({
    repository: new ClipsRepository(database.db),
    library,
    storage,
    tasks: platform.tasks,
    ffmpeg: platform.ffmpeg,
    logger,
    uploadsPerUser: config.uploads.perUser,
    limits: {
      maxImages: config.clips.maxImages,
      maxImageBytes: config.clips.maxImageBytes,
      maxVideoBytes: config.clips.maxVideoBytes,
      maxVideoSeconds: config.clips.maxVideoSeconds,
      maxImagePixels: CLIP_LIMITS.maxImagePixels,
      maxImageAspect: CLIP_LIMITS.maxImageAspect,
    },
    publicUrl,
    // The song's lyrics, drawn when the clip brings no words of its own.
    lyrics: { lyricsFor: async (songId) => (await lyricsRepository.find(songId))?.document },
  });
  const discoveryRepository = new DiscoveryRepository(database.db);
  const analysis = new AnalysisService({
    repository: discoveryRepository,
    storage,
    ffmpeg,
    songKey: async (songId) => (await libraryRepository.findRow(songId))?.storageKey,
    logger,
  });
  const discovery = new DiscoveryService({ repository: discoveryRepository, catalog: library, logger, llm: config.ai.llm });
  return { auth, library, ingest, storageCleanup, sharing, playlists, lyrics, lyricsLookup, transcription, embeddedLyrics, songUrls, clips, analysis, discovery };
}

/** TRANSCRIBE_ENGINE: the local Whisper, an OpenAI-compatible endpoint, or none. */
function transcriptionEngine(config: Config): TranscriptionEngine | null {
  const settings = config.transcription;
  if (settings.engine === 'off') return null;
  if (settings.engine === 'openai') {
    return new OpenAiTranscriptionEngine({ apiUrl: settings.apiUrl, apiKey: settings.apiKey, model: settings.model, requestTimeoutMs: settings.timeoutMs });
  }
  return new LocalWhisperEngine({ model: settings.model, modelDir: settings.modelDir, cacheDir: settings.cacheDir, modelHost: settings.modelHost });
}

/** Every background job, as the platform and the features declare them: one list, registered by every process. */
export function featureJobs(platform: Platform, features: Features): AnyJobDefinition[] {
  return [
    ...mailJobs(platform.mailer),
    ...tasksJobs(platform.tasks),
    ...authJobs(features.auth),
    ...lyricsJobs(features.transcription, features.embeddedLyrics, platform.config.transcription.timeoutMs),
    ...clipsJobs(features.clips, { concurrency: platform.config.clips.rendersPerProcess }),
    ...discoveryJobs(features.analysis, { backfill: platform.config.ai.backfill }),
    ...maintenanceJobs([
      () => features.auth.pruneExpired(),
      () => features.sharing.pruneExpired(),
      () => features.storageCleanup.run(),
      () => features.clips.sweepOrphanedFiles(),
      () => platform.removeStaleTempFiles(new Date(Date.now() - TEMP_FILE_MIN_AGE_MS)),
    ]),
  ];
}
