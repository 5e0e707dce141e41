import { LYRICS_MESSAGES } from '@encore/common/lyrics.contract';
import { ValidationError } from '../../../platform/errors/app-errors.js';
import { LOCAL_STORAGE_ROUTE_PREFIX, LocalStorage } from '../../../platform/storage/local.storage.js';
import type { S3Storage } from '../../../platform/storage/s3.storage.js';
import { MountedStorage } from '../../../platform/storage/mounted.storage.js';
import type { Storage } from '../../../platform/storage/storage.types.js';
import { songKeyAtEndOf } from '../../library/library.port.js';

/**
 * SPEC 7's transcription service takes `{url}`; Encore only accepts a URL it issued for one of
 * its songs, and never fetches it: the song is identified and read from storage.
 * Accepted: a signed play URL (local storage: the signature is checked; S3: the bucket's
 * origin, and a signature Encore's credentials made, unexpired) and Encore's own song page `/music/<id>`.
 */
export class SongUrlVerifier {
  constructor(
    private readonly deps: {
      storage: Storage;
      /** Encore's own origin (PUBLIC_URL); relative URLs are read against it. */
      publicOrigin: string;
      /** S3: the origins presigned URLs point at. */
      storageOrigins: readonly string[];
      songIdByStorageKey: (key: string) => Promise<number | undefined>;
    },
  ) {}

  async songIdOf(raw: string, now = Date.now()): Promise<number> {
    const refuse = () => new ValidationError(LYRICS_MESSAGES.urlNotOurs);
    let url: URL;
    try {
      url = new URL(raw.trim(), this.deps.publicOrigin);
    } catch {
      throw refuse();
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse();
    if (url.username || url.password) throw refuse();
    const path = safeDecode(url.pathname);
    if (url.origin === this.deps.publicOrigin) {
      const page = /^\/music\/(\d{1,10})\/?$/.exec(path);
      if (page) return Number(page[1]);
      const prefix = `${LOCAL_STORAGE_ROUTE_PREFIX}/o/`;
      const storage = this.deps.storage;
      // Encore's own signed URLs: the local driver's, and those of music folders' files with any driver.
      if ((storage instanceof LocalStorage || storage instanceof MountedStorage) && path.startsWith(prefix)) {
        const key = path.slice(prefix.length);
        try {
          storage.verify('get', key, Object.fromEntries(url.searchParams.entries()));
        } catch {
          throw refuse();
        }
        return this.songOf(key, refuse);
      }
      throw refuse();
    }
    if (this.deps.storage.driver === 's3' && this.deps.storageOrigins.includes(url.origin)) {
      const key = songKeyAtEndOf(path);
      const s3 = (this.deps.storage instanceof MountedStorage ? this.deps.storage.primary : this.deps.storage) as S3Storage;
      if (!key || !(await s3.presignedGetByUs(url, now))) throw refuse();
      return this.songOf(key, refuse);
    }
    throw refuse();
  }

  private async songOf(key: string, refuse: () => Error): Promise<number> {
    const id = await this.deps.songIdByStorageKey(key);
    if (id === undefined) throw refuse();
    return id;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
