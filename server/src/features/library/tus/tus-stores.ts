import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/server';
import type { MetadataValue } from '@tus/s3-store';
import type { Config } from '../../../config.js';
import { isErrno } from '../../../platform/fs/errno.js';
import type { Logger } from '../../../platform/logger.js';
import type { Storage } from '../../../platform/storage/storage.types.js';

/**
 * Where resumable uploads gather their bytes until they are whole, and how a whole one moves
 * into storage at an upload key. Ids here are the URL's (`<user id>-<hex>`).
 */
export interface TusStaging {
  readonly datastore: DataStore;
  /** The datastore's name of an upload (S3: below the `tus/` prefix). */
  storeId(id: string): string;
  /** The URL's id of a datastore name; undefined for a name that is not one of ours. */
  urlId(storeId: string): string | undefined;
  /** Moves a finished upload's bytes to `key` in storage and forgets the upload. */
  claim(id: string, key: string, maxBytes: number): Promise<void>;
  /** Removes whatever is left of an upload, finished or not. Never throws. */
  discard(id: string): Promise<void>;
  /** Removes uploads begun before the expiry period; returns how many. */
  sweep(): Promise<number>;
}

export interface TusStagingOptions {
  storage: Storage;
  logger: Logger;
  /** Partial uploads untouched for this long (since creation) are swept. */
  expirationMs: number;
  /** S3 part size; PATCHes of the browser are this size too. */
  partBytes: number;
}

const URL_ID = /^\d{1,10}-[0-9a-f]{32}$/;

/** The configured storage's staging: a dot folder below the local root, or `tus/` in the bucket. */
export function createTusStaging(config: Config['storage'], options: TusStagingOptions): TusStaging {
  return config.driver === 's3' ? new S3Staging(config, options) : new LocalStaging(path.join(config.root, '.tus'), options);
}

/**
 * Local disk: `<media root>/.tus/<id>` and its `<id>.json`, in a dot folder no storage key can
 * name (key segments never start with a dot), so no signed URL ever reaches a partial upload.
 */
class LocalStaging implements TusStaging {
  readonly datastore: FileStore;

  constructor(
    private readonly directory: string,
    private readonly options: TusStagingOptions,
  ) {
    this.datastore = new FileStore({ directory, expirationPeriodInMilliseconds: options.expirationMs });
  }

  storeId(id: string): string {
    return id;
  }

  urlId(storeId: string): string | undefined {
    return URL_ID.test(storeId) ? storeId : undefined;
  }

  async claim(id: string, key: string, maxBytes: number): Promise<void> {
    // Copied, not renamed: storage writes atomically in its own layout (and fsyncs); a disk
    // copy of the largest allowed file is a fraction of the time it took to arrive.
    await this.options.storage.put(key, createReadStream(path.join(this.directory, id)), { maxBytes });
    await this.discard(id);
  }

  async discard(id: string): Promise<void> {
    await Promise.all(
      [id, `${id}.json`].map((name) =>
        fs.rm(path.join(this.directory, name), { force: true }).catch((error: unknown) => {
          if (!isErrno(error, 'ENOENT')) this.options.logger.warn({ err: error, id }, 'could not remove a resumable upload');
        }),
      ),
    );
  }

  async sweep(): Promise<number> {
    try {
      return await this.datastore.deleteExpired();
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return 0; // no resumable upload was ever begun here
      throw error;
    }
  }
}

/**
 * S3: a multipart upload at `tus/<id>` (plus `tus/<id>.info`, and `tus/<id>.part` for a tail
 * shorter than a part), in the bucket of the song storage. A finished one is copied to its
 * upload key inside the bucket (no bytes through Encore).
 */
class S3Staging implements TusStaging {
  readonly datastore: S3Store;
  private static readonly PREFIX = 'tus/';

  constructor(
    config: Extract<Config['storage'], { driver: 's3' }>,
    private readonly options: TusStagingOptions,
  ) {
    const { accessKeyId, secretAccessKey } = config;
    this.datastore = new S3Store({
      partSize: options.partBytes,
      expirationPeriodInMilliseconds: options.expirationMs,
      // Object tags are not understood by every S3-compatible store; expiry is swept instead.
      useTags: false,
      cache: new NoCache(),
      s3ClientConfig: {
        bucket: config.bucket,
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
        // As s3.storage.ts: the newer default checksums are not understood by many S3-compatible stores.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
  }

  storeId(id: string): string {
    return `${S3Staging.PREFIX}${id}`;
  }

  urlId(storeId: string): string | undefined {
    const id = storeId.startsWith(S3Staging.PREFIX) ? storeId.slice(S3Staging.PREFIX.length) : '';
    return URL_ID.test(id) ? id : undefined;
  }

  async claim(id: string, key: string): Promise<void> {
    // The completed multipart object is copied within the bucket, then the staging objects go.
    await this.options.storage.move(this.storeId(id), key);
    await this.discard(id);
  }

  async discard(id: string): Promise<void> {
    const storeId = this.storeId(id);
    // An unfinished upload also has a multipart upload to abort; a finished one no longer does.
    await this.datastore.remove(storeId).catch(() => undefined);
    const results = await Promise.allSettled([storeId, `${storeId}.info`, `${storeId}.part`].map((key) => this.options.storage.delete(key)));
    for (const result of results) {
      if (result.status === 'rejected') this.options.logger.warn({ err: result.reason, id }, 'could not remove a resumable upload');
    }
  }

  async sweep(): Promise<number> {
    // Aborts multipart uploads begun before the expiry period (and drops their .info and .part).
    const aborted = await this.datastore.deleteExpired();
    // A finished upload whose claim never ran (the process died) is an object with an .info.
    const before = Date.now() - this.options.expirationMs;
    let removed = 0;
    for await (const object of this.options.storage.list(S3Staging.PREFIX)) {
      if (object.lastModified.getTime() >= before) continue;
      await this.options.storage.delete(object.key);
      removed += 1;
    }
    return aborted + removed;
  }
}

/**
 * The S3 store's upload info, read from the bucket every time: a copy cached in one process
 * would outlive a sweep or another process's work, and a cached info of an upload gone from S3
 * reads as a finished upload. One small GET per request is the price.
 */
class NoCache implements KvStore<MetadataValue> {
  async get(): Promise<MetadataValue | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
}
