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
