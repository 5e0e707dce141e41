import type { MailMessage } from '../platform/mail/mail.types.js';
import { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import { AuthRepository } from './auth/auth.repository.js';
import { AuthService } from './auth/auth.service.js';
import { GoogleVerifier } from './auth/google-verifier.js';
import { SessionTokens } from './auth/session-tokens.js';
import type { AnyJobDefinition } from '../platform/jobs/jobs.types.js';
import { mailJobs, sendMailJob } from '../platform/mail/mail.jobs.js';
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
}

export function createFeatures(platform: Platform, logger: Logger): Features {
  const { config, database, jobs, secrets, storage } = platform;
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
  return { auth, library, ingest, storageCleanup, sharing, playlists, lyrics, lyricsLookup };
}

/** Every background job, as the platform and the features declare them: one list, registered by every process. */
export function featureJobs(platform: Platform, features: Features): AnyJobDefinition[] {
  return [
    ...mailJobs(platform.mailer),
    ...authJobs(features.auth),
    ...maintenanceJobs([
      () => features.auth.pruneExpired(),
      () => features.sharing.pruneExpired(),
      () => features.storageCleanup.run(),
      () => platform.removeStaleTempFiles(new Date(Date.now() - TEMP_FILE_MIN_AGE_MS)),
    ]),
  ];
}
