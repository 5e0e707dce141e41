import type { Config } from '../../config.js';
import type { Logger } from '../logger.js';
import { LocalStorage } from './local.storage.js';
import type { Storage } from './storage.types.js';

export interface StorageDeps {
  /** Signs the local driver's URLs. */
  signingSecret: string;
  /** Origin to prefix the local driver's URLs with; they stay relative without it. */
  publicBaseUrl?: string;
  logger: Logger;
  /** The limit localStorageRoutes applies to uploads through signed PUT URLs. */
  maxUploadBytes: number;
}

/** The configured driver. The local one creates its root; the S3 one creates nothing. */
export async function createStorage(config: Config['storage'], deps: StorageDeps): Promise<Storage> {
  if (config.driver === 's3') {
    const { driver: _driver, ...s3 } = config;
    // Loaded only when configured: the AWS SDK is a fifth of a second and ~20 MB a local install never needs.
    const { S3Storage } = await import('./s3.storage.js');
    return new S3Storage({ ...s3, logger: deps.logger });
  }
  return LocalStorage.create({
    root: config.root,
    signingSecret: deps.signingSecret,
    maxUploadBytes: deps.maxUploadBytes,
    logger: deps.logger,
    ...(deps.publicBaseUrl === undefined ? {} : { publicBaseUrl: deps.publicBaseUrl }),
  });
}
