import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedUpkeep, type EmbeddedUpkeep } from './db/embedded-upkeep.js';
import { openDatabase, type Database } from './db/database.js';
import { removeStaleTempFiles } from './fs/atomic-write.js';
import { sweepOwnedTempDirs } from './fs/owned-temp-dir.js';
import { startJobs, type Jobs } from './jobs/jobs.js';
import type { Logger } from './logger.js';
import { MailDeliveries } from './mail/mail-deliveries.js';
import { createMailer } from './mail/mailer.js';
import type { Mailer } from './mail/mail.types.js';
import { createFfmpeg, type Ffmpeg } from './media/ffmpeg.js';
import { loadSecrets, type Secrets } from './secrets.js';
import { TaskStore } from './tasks/task.store.js';
import { Tasks } from './tasks/tasks.js';
import { createStorage } from './storage/storage.js';
import { MountedStorage } from './storage/mounted.storage.js';
import { RequestActivity } from './load/request-activity.js';

/** The real components every process uses, whether it serves HTTP or only works jobs. */
export interface Platform {
  config: Config;
  database: Database;
  /** The configured storage with the read-only mounts of modules (`mount`). */
  storage: MountedStorage;
  mailer: Mailer;
  jobs: Jobs;
  /** User-visible work with progress; its jobs report into it. */
  tasks: Tasks;
  /** Found on first use (health or a job), not at start: serving songs never waits for it. */
  ffmpeg: Ffmpeg;
  secrets: Secrets;
  /**
   * Removes temp files of interrupted writes (storage, outbox) of gone processes or last written
   * before `olderThan`, and this machine's temp folders (clip upload spools, render folders) of
   * gone processes.
   */
  removeStaleTempFiles(olderThan: Date): Promise<number>;
  /** PGlite only: its stand-in for autovacuum, which runs a pass every minute. */
  upkeep: EmbeddedUpkeep | undefined;
  /** Whether HTTP requests are being served (a serving process notes them; a worker has none). */
  activity: RequestActivity;
  close(): Promise<void>;
}

/**
 * Temp files younger than this may belong to a write in progress in another process sharing
 * the disk: a live write touches its file at least every UPLOAD_STALL_SECONDS.
 */
export const TEMP_FILE_MIN_AGE_MS = 10 * 60 * 1000;
/** A temp folder untouched this long is a leftover whatever its owner says (a render's expiry is 6 h). */
const TEMP_DIR_STALE_MS = 24 * 3600 * 1000;

/** The temp folders of this machine (platform/fs/owned-temp-dir.ts) whose process is gone. */
const sweepTempDirs = async (now: number) => (await sweepOwnedTempDirs({ staleBefore: new Date(now - TEMP_DIR_STALE_MS) })).length;

export async function startPlatform(config: Config, logger: Logger): Promise<Platform> {
  const secrets = await loadSecrets(config.jwtSecret, config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
    pgliteCacheMb: config.embeddedDbCacheMb,
    migrationsFolder: config.migrationsFolder,
  });
  const closers: (() => Promise<void>)[] = [() => database.close()];
  try {
    // The configured driver, plus the read-only mounts modules add (the music folders' files).
    const storage = new MountedStorage(
      await createStorage(config.storage, {
        signingSecret: secrets.storageSigningKey,
        publicBaseUrl: config.publicUrl,
        logger,
        maxUploadBytes: config.maxUploadBytes,
      }),
      { signingSecret: secrets.storageSigningKey, logger, ...(config.publicUrl === undefined ? {} : { publicBaseUrl: config.publicUrl }) },
    );
    const sweepTempFiles = async (olderThan: Date) =>
      (await storage.removeStaleTempFiles(olderThan)) + (await removeStaleTempFiles(config.mail.outboxDir, olderThan)) + (await sweepTempDirs(Date.now()));
    // A crash (kill -9) leaves temp files behind. With PGlite this process is the only one using
    // DATA_DIR, so every temp file in it is a leftover; otherwise only the old ones are sure to be.
    // Whatever the database, a temp file or folder whose writer is known to be gone (a process
    // of this machine no longer running: file names and folders say whose they are) goes too.
    // S3 upload spools live in the machine's shared temp folder: only old ones, always.
    // In the background: on a large library the walk through every folder of media takes
    // seconds, and nothing waits for it (a temp file is never read, only ever renamed by the
    // write that made it, and files written from now on are newer than the cut-off).
    const now = Date.now();
    const startupSweep = (async () =>
      (await storage.removeStaleTempFiles(new Date(database.driver === 'pglite' && storage.driver === 'local' ? now : now - TEMP_FILE_MIN_AGE_MS))) +
      (await removeStaleTempFiles(config.mail.outboxDir, new Date(database.driver === 'pglite' ? now : now - TEMP_FILE_MIN_AGE_MS))) +
      (await sweepTempDirs(now)))().then(
      (swept) => {
        if (swept > 0) logger.info({ count: swept }, 'removed temp files left by an interrupted run');
      },
      (error: unknown) => logger.warn({ err: error }, 'could not sweep the temp files of an interrupted run'),
    );
    closers.unshift(() => startupSweep);
    const ffmpeg = createFfmpeg({ configuredPath: config.ffmpegPath, dataDir: config.dataDir, logger });
    // Found and probed now, while the rest starts: the first health check or media job need not wait.
    // Closing waits for it: a probe writes its cache into DATA_DIR, which must be left alone after.
    const ffmpegProbe = ffmpeg.info().then(
      () => undefined,
      () => undefined,
    );
    closers.unshift(() => ffmpegProbe);
    const mailer = createMailer(config.mail, logger, new MailDeliveries(database.db));
    closers.unshift(() => mailer.close());
    // PGlite has no autovacuum: statistics and dead rows are kept up here.
    const upkeep = database.driver === 'pglite' ? startEmbeddedUpkeep(database.executor, logger) : undefined;
    if (upkeep) closers.unshift(() => upkeep.stop());
    const taskStore = new TaskStore(database.db);
    const jobs = await startJobs(database, logger, taskStore);
    closers.unshift(() => jobs.stop());
    const tasks = new Tasks({ store: taskStore, jobs, database, logger });
    closers.unshift(() => tasks.close());
    return {
      config,
      database,
      storage,
      mailer,
      jobs,
      tasks,
      ffmpeg,
      secrets,
      removeStaleTempFiles: sweepTempFiles,
      upkeep,
      activity: new RequestActivity(),
      async close() {
        for (const close of closers) await close().catch((error: unknown) => logger.error({ err: error }, 'error while closing'));
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
