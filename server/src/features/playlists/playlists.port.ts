import { definePort } from '../../modules/module.js';

/** A playlist another module made for a user: an AI playlist and the prompt it came from. */
export interface GeneratedPlaylist {
  name: string;
  description: string;
  prompt: string;
  /** In playlist order. */
  songIds: number[];
}

/** Saves playlists other modules make (discovery's AI playlists) among the user's own. */
export interface GeneratedPlaylists {
  /** Creates it with its songs in order, in one transaction, leaving out songs deleted since they were chosen; answers its id. */
  createGenerated(ownerId: number, playlist: GeneratedPlaylist): Promise<number>;
}

export const generatedPlaylistsPort = definePort<GeneratedPlaylists>(
  'generated-playlists',
  'Saves a playlist made for a user (an AI playlist from a prompt) with its songs in order.',
);

/** A playlist file (.m3u/.m3u8) found outside Encore (a music folder), to keep as a playlist. */
export interface PlaylistFile {
  /** The playlist Encore made of this file before, if any. */
  playlistId: number | undefined;
  name: string;
  description: string | null;
  /** The file's text. */
  text: string;
  /** The songs its entries' locations name (paths the caller knows), in the same order; undefined for one it does not know. */
  resolve(locations: readonly string[]): Promise<(number | undefined)[]>;
}

/** What became of a playlist file: its playlist (undefined when not made: not a playlist, or deleted by its owner), and the entries that named no song. */
export interface ImportedPlaylistFile {
  playlistId: number | undefined;
  songs: number;
  notFound: string[];
}

/** Keeps playlist files as playlists: entries matched by the caller's paths, then as Import M3U8 matches them. */
export interface PlaylistFiles {
  importFile(ownerId: number, file: PlaylistFile): Promise<ImportedPlaylistFile>;
}

export const playlistFilesPort = definePort<PlaylistFiles>(
  'playlist-files',
  "Keeps a playlist file of a music folder as a playlist of the instance's owner, its entries matched by path, then by name, artist, title and length.",
);
