import type { Song } from '@encore/common/library.contract';
import type { Playlist, PlaylistSummary } from '@encore/common/playlists.contract';

/** A playlist as GET /api/playlists/{id} answers it, holding `songs` in order. */
export function makePlaylist(id: number, songs: Song[] = [], overrides: Partial<Omit<Playlist, 'songs'>> = {}): Playlist {
  return {
    id,
    name: `Playlist ${id}`,
    description: null,
    songCount: songs.length,
    songs,
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** The same playlist as the list (GET /api/playlists) answers it. */
export function toSummary(playlist: Playlist): PlaylistSummary {
  return { ...playlist, songs: playlist.songs.map(({ id, displayName }) => ({ id, displayName })) };
}
