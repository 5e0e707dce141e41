import type { Playlist, PlaylistSummary } from '@encore/common/playlists.contract';
import { toSong } from '../library/library.port.js';
import type { PlaylistRow } from './playlists.repository.js';
import type { PlaylistOverview, PlaylistWithSongs } from './playlists.service.js';

/** The REST contract's shapes of the playlists service's records. */
export function toPlaylistSummary(playlist: PlaylistOverview): PlaylistSummary {
  return { ...summaryFields(playlist.row), songCount: playlist.songs.length, songs: playlist.songs };
}

export function toPlaylist(playlist: PlaylistWithSongs, viewerId: number): Playlist {
  return { ...summaryFields(playlist.row), songCount: playlist.songs.length, songs: playlist.songs.map((song) => toSong(song, viewerId)) };
}

function summaryFields(row: PlaylistRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    aiPrompt: row.aiPrompt,
    keepFresh: row.aiPrompt !== null && row.aiSize !== null ? row.keepFresh : null,
  };
}
