import { formatLimitBytes, limitMessage } from '@encore/common/limit-messages';
import { PayloadTooLargeError } from '../../platform/errors/app-errors.js';

/** Who adds a song: admins have no quota (issue 29). */
export interface QuotaHolder {
  id: number;
  role?: 'admin' | 'user';
}

/**
 * USER_STORAGE_MB: the room one user's uploaded songs may take (0: no limit; admins have none).
 * Asked before an upload begins (nothing may be added to a full storage; a resumable upload's
 * declared length must fit) and again when its bytes become a song (they must fit). A user's
 * uploads completing at the same instant are each checked against the songs already recorded,
 * so together they may pass the quota by at most what they add (UPLOADS_PER_USER × MAX_UPLOAD_MB).
 */
export class StorageQuota {
  constructor(
    private readonly quotaBytes: number,
    private readonly usedBytes: (ownerId: number) => Promise<number>,
  ) {}

  /** 413 with the figures when `bytes` more (undefined: an upload of a size not yet known) do not fit. */
  async assertRoom(holder: QuotaHolder, bytes?: number): Promise<void> {
    if (this.quotaBytes <= 0 || holder.role === 'admin') return;
    const used = await this.usedBytes(holder.id);
    const figures = { used: formatLimitBytes(used), quota: formatLimitBytes(this.quotaBytes) };
    if (bytes === undefined) {
      if (used >= this.quotaBytes) throw new PayloadTooLargeError(limitMessage('limitStorageFull', figures));
      return;
    }
    if (used + bytes > this.quotaBytes) throw new PayloadTooLargeError(limitMessage('limitStorageNoRoom', { ...figures, size: formatLimitBytes(bytes) }));
  }
}
