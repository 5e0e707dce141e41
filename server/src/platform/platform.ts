import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, type Database } from './db/database.js';
import { startJobs, type Jobs } from './jobs/jobs.js';
import type { Logger } from './logger.js';
import { createMailer } from './mail/mailer.js';
import type { Mailer } from './mail/mail.types.js';
import { createFfmpeg, type Ffmpeg } from './media/ffmpeg.js';
import { loadSecrets, type Secrets } from './secrets.js';
import { createStorage } from './storage/storage.js';
import type { Storage } from './storage/storage.types.js';

/** The real components every process uses, whether it serves HTTP or only works jobs. */
export interface Platform {
  config: Config;
  database: Database;
  storage: Storage;
  mailer: Mailer;
  jobs: Jobs;
  /** Found on first use (health or a job), not at start: serving songs never waits for it. */
  ffmpeg: Ffmpeg;
  secrets: Secrets;
  close(): Promise<void>;
}

export async function startPlatform(config: Config, logger: Logger): Promise<Platform> {
  const secrets = await loadSecrets(config.jwtSecret, config.dataDir);
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  const closers: (() => Promise<void>)[] = [() => database.close()];
  try {
    const storage = await createStorage(config.storage, {
      signingSecret: secrets.storageSigningKey,
      publicBaseUrl: config.publicUrl,
      logger,
      maxUploadBytes: config.maxUploadBytes,
    });
    const mailer = createMailer(config.mail, logger);
    closers.unshift(() => mailer.close());
    const jobs = await startJobs(database, logger, { schedule: config.worker === 'in-process' });
    closers.unshift(() => jobs.stop());
    const ffmpeg = createFfmpeg({ configuredPath: config.ffmpegPath, dataDir: config.dataDir, logger });
    return {
      config,
      database,
      storage,
      mailer,
      jobs,
      ffmpeg,
      secrets,
      async close() {
        for (const close of closers) await close().catch((error: unknown) => logger.error({ err: error }, 'error while closing'));
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
