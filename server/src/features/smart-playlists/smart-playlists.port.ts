import { definePort } from '../../modules/module.js';

/** A smart playlist as another API lists it (Subsonic's getPlaylists). */
export interface SmartPlaylistListing {
  id: number;
  name: string;
  comment: string | null;
  /** How many songs match for the user now (after the rules' limit), and how long they play in all. */
  songCount: number;
  durationSeconds: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A user's smart playlists, read-only, for the Subsonic API: listed, and their songs for that user now. */
export interface UserSmartPlaylists {
  list(userId: number): Promise<SmartPlaylistListing[]>;
  /** The playlist and the ids of its songs now, in order (at most `max`); not found when it is not the user's. */
  songs(id: number, userId: number, max: number): Promise<{ playlist: SmartPlaylistListing; songIds: number[] }>;
}

/** The `.nsp` files of music folders, as smart playlists of the instance's owner. */
export interface SmartPlaylistFiles {
  /**
   * Makes or updates the smart playlist of the file `path` of `folder` from its text; its id.
   * A file that is not a smart playlist throws a validation error naming the problem.
   */
  importFolderFile(ownerId: number, file: { folder: string; path: string; fallbackName: string; text: string }): Promise<number>;
  /** Deletes the smart playlists of the folder's .nsp files that are no longer there. */
  keepOnly(folder: string, paths: readonly string[]): Promise<void>;
}

export const userSmartPlaylistsPort = definePort<UserSmartPlaylists>(
  'user-smart-playlists',
  "A user's smart playlists and their songs now, read-only (Subsonic).",
);
export const smartPlaylistFilesPort = definePort<SmartPlaylistFiles>(
  'smart-playlist-files',
  "Makes the .nsp files of music folders the instance owner's smart playlists, and removes those whose files are gone.",
);
