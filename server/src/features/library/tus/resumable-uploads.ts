import { resumableUpload } from '@encore/common/library.contract';
import { uploadDeadlineMs, type Config } from '../../../config.js';
import type { Logger } from '../../../platform/logger.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import type { IngestService } from '../ingest/ingest.service.js';
import { ResumableUploadService, RESUMABLE_UPLOAD_EXPIRY_MS } from './resumable-upload.service.js';
import type { TusRouteOptions } from './tus.routes.js';
import { createTusStaging } from './tus-stores.js';

/** The library's resumable uploads on the configured storage: the service and its routes' options. */
export function setUpResumableUploads(
  config: Pick<Config, 'storage' | 'maxUploadBytes' | 'uploads'>,
  deps: { storage: Storage; logger: Logger; ingest: IngestService },
): { service: ResumableUploadService; routes: TusRouteOptions } {
  const { storage, logger, ingest } = deps;
  const staging = createTusStaging(config.storage, { storage, logger, expirationMs: RESUMABLE_UPLOAD_EXPIRY_MS, partBytes: resumableUpload.chunkBytes });
  const service = new ResumableUploadService({ ingest, staging, storage, logger, maxUploadBytes: config.maxUploadBytes });
  return {
    service,
    routes: {
      service,
      staging,
      logger,
      maxUploadBytes: config.maxUploadBytes,
      bodyTimeoutMs: uploadDeadlineMs(config) + 2_000,
      stallMs: config.uploads.stallMs,
      perUser: config.uploads.perUser,
    },
  };
}
