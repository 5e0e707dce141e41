import { formatLimitBytes, limitMessage } from '@encore/common/limit-messages';
import { PayloadTooLargeError } from '../../platform/errors/app-errors.js';

/** Who adds a song: admins have no quota (issue 29). */
export interface QuotaHolder {
  id: number;
  role?: 'admin' | 'user';
}

/** A song's place in its uploader's quota: the most their songs may take with it, and the refusal past it. */
export interface QuotaRoom {
  maxBytes: number;
  refuse(usedBytes: number): PayloadTooLargeError;
}

/**
 * USER_STORAGE_MB: the room one user's uploaded songs may take (0: no limit; admins have none).
 * Looked at before an upload begins (nothing may be added to a full storage; a resumable
 * upload's declared length must fit) and before its bytes are read; decided when its song is
 * recorded: the sum and the insert are one step per user (LibraryRepository.insertWithin), so
 * uploads completing at the same instant never pass the quota together.
 */
export class StorageQuota {
  constructor(
    private readonly quotaBytes: number,
    private readonly usedBytes: (ownerId: number) => Promise<number>,
  ) {}

  /** 413 with the figures when `bytes` more (undefined: an upload of a size not yet known) do not fit. */
  async assertRoom(holder: QuotaHolder, bytes?: number): Promise<void> {
    const room = this.roomFor(holder, bytes ?? 0);
    if (!room) return;
    const used = await this.usedBytes(holder.id);
    if (bytes === undefined) {
      if (used >= this.quotaBytes) throw new PayloadTooLargeError(limitMessage('limitStorageFull', this.figures(used)));
      return;
    }
    if (used + bytes > this.quotaBytes) throw room.refuse(used);
  }

  /** What a song of `bytes` by `holder` must fit when it is recorded; undefined: no quota applies. */
  roomFor(holder: QuotaHolder, bytes: number): QuotaRoom | undefined {
    if (this.quotaBytes <= 0 || holder.role === 'admin') return undefined;
    return {
      maxBytes: this.quotaBytes,
      refuse: (used) => new PayloadTooLargeError(limitMessage('limitStorageNoRoom', { ...this.figures(used), size: formatLimitBytes(bytes) })),
    };
  }

  private figures(used: number): { used: string; quota: string } {
    return { used: formatLimitBytes(used), quota: formatLimitBytes(this.quotaBytes) };
  }
}
