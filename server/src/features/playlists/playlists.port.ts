import { definePort } from '../../modules/module.js';
import type { SongRecord } from '../library/library.port.js';

/** The size an AI playlist's prompt asked for: a number of songs or of minutes (neither: the default). */
export interface AiPlaylistSize {
  count?: number;
  minutes?: number;
}

/** A playlist another module made for a user: an AI playlist and the prompt it came from. */
export interface GeneratedPlaylist {
  name: string;
  description: string;
  prompt: string;
  /** The size its prompt asked for, for a playlist ranked from a prompt (one that may be kept fresh); absent for "More like this". */
  size?: AiPlaylistSize;
  /** In playlist order. */
  songIds: number[];
}

/** An AI playlist its owner keeps fresh (issue 41): what a re-ranking starts from. */
export interface FreshPlaylist {
  id: number;
  ownerId: number;
  prompt: string;
  /** The size it was generated with: a re-ranking keeps it. */
  size: AiPlaylistSize;
  /** Songs the user added by hand: they stay, and the ranking leaves them to the user. */
  handPicked: number[];
  /** Songs the user removed by hand: never chosen again. */
  removed: number[];
}

/** Saves playlists other modules make (discovery's AI playlists) among the user's own. */
export interface GeneratedPlaylists {
  /** Creates it with its songs in order, in one transaction, leaving out songs deleted since they were chosen; answers its id. */
  createGenerated(ownerId: number, playlist: GeneratedPlaylist): Promise<number>;
  /** The ids of every AI playlist whose owner keeps it fresh. */
  freshPlaylistIds(): Promise<number[]>;
  /** That playlist while its owner keeps it fresh; undefined otherwise (switched off, deleted). */
  freshPlaylist(id: number): Promise<FreshPlaylist | undefined>;
  /**
   * Replaces the ranking's songs of a fresh playlist by these, in this order, followed by the
   * songs the user added by hand (in their order); songs the user removed (or added by hand)
   * since the ranking read the playlist are left out of these. False, changing nothing, when
   * the playlist is no longer kept fresh.
   */
  replaceGenerated(id: number, songIds: readonly number[]): Promise<boolean>;
  /** Calls `listener` with the playlist's id when its owner switches Keep fresh on (from off), after the switch is saved. */
  onKeptFresh(listener: (playlistId: number) => Promise<void>): void;
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

/** A user's playlist as another API shows it (the Subsonic API): its songs in order, as its owner sees them. */
export interface UserPlaylist {
  id: number;
  ownerId: number;
  name: string;
  /** The description (Subsonic's comment). */
  comment: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Songs of an AI playlist came from a prompt. */
  aiPrompt: string | null;
  songs: SongRecord[];
}

/** A playlist in a list: what it holds, without the songs. */
export interface UserPlaylistSummary extends Omit<UserPlaylist, 'songs'> {
  songCount: number;
  durationSeconds: number;
}

/** Changes to a playlist, applied in this order: name and comment, removals (indexes of the current order), additions (appended). */
export interface UserPlaylistChanges {
  name?: string;
  comment?: string;
  songIndexesToRemove?: readonly number[];
  songIdsToAdd?: readonly number[];
}

/**
 * Each user's own playlists, AI ones included (order kept). Another user's playlist is
 * not found, exactly like one that does not exist.
 */
export interface UserPlaylists {
  list(ownerId: number): Promise<UserPlaylistSummary[]>;
  get(id: number, ownerId: number): Promise<UserPlaylist>;
  /** Songs that do not exist are left out; a song appears once (later repeats are dropped). */
  create(ownerId: number, name: string, songIds: readonly number[]): Promise<UserPlaylist>;
  update(id: number, ownerId: number, changes: UserPlaylistChanges): Promise<UserPlaylist>;
  delete(id: number, ownerId: number): Promise<void>;
}

export const userPlaylistsPort = definePort<UserPlaylists>(
  'user-playlists',
  "A user's own playlists for other APIs (Subsonic): list, read in order, create with songs, rename, add and remove by index, delete.",
);
