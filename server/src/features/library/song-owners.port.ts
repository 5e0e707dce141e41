import { definePort } from '../../modules/module.js';

/** How many songs one user uploaded and the bytes they take. */
export interface UploadUsage {
  songs: number;
  bytes: number;
}

/**
 * Songs as their uploaders hold them, for the admin page: what each user uploaded, and what
 * becomes of it when an account is deleted.
 */
export interface SongOwners {
  /** Per uploader (users with no upload are absent), in one query. */
  usage(): Promise<Map<number, UploadUsage>>;
  /** The user's uploads stay in the collection, owned by the instance (as music-folder songs are); how many. */
  release(ownerId: number): Promise<number>;
  /** Deletes the user's uploads (likes, playlist places, lyrics go with them; their files go at the next orphan sweep); how many. */
  removeAll(ownerId: number): Promise<number>;
}

export const songOwnersPort = definePort<SongOwners>(
  'song-owners',
  "Each user's uploads (count and bytes) and, when an account goes, keeping them as the instance's or deleting them.",
);
