import { definePort } from '../../modules/module.js';

/** A share link as its sender lists it. */
export interface ShareLinkRecord {
  id: number;
  songId: number;
  /** The public page's address; null for a link made before links were kept readable. */
  url: string | null;
  description: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastVisitedAt: Date | null;
  visitCount: number;
}

/**
 * A user's share links (public pages that play one song without an account, expiring), as
 * Subsonic apps make and list them. Another user's link behaves as one that does not exist
 * (NotFoundError); an unknown song or a bad expiry is a ValidationError.
 */
export interface ShareLinks {
  /** The user's links that have not expired, newest first. */
  list(userId: number): Promise<ShareLinkRecord[]>;
  /** `expiresAt` undefined: the default lifetime (30 days). */
  create(userId: number, songId: number, options: { description?: string | undefined; expiresAt?: Date | undefined }): Promise<ShareLinkRecord>;
  /** `expiresAt` null: the longest lifetime a link may have, from now. */
  update(userId: number, id: number, changes: { description?: string | undefined; expiresAt?: Date | null | undefined }): Promise<ShareLinkRecord>;
  delete(userId: number, id: number): Promise<void>;
}

export const shareLinksPort = definePort<ShareLinks>(
  'share-links',
  "A user's share links (public pages playing one song, expiring): list, make, change, delete.",
);
