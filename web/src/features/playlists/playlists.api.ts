import {
  playlist,
  playlistSummary,
  type CreatePlaylistBody,
  type Playlist,
  type PlaylistSummary,
  type UpdatePlaylistBody,
} from '@encore/common/playlists.contract';
import { z } from 'zod';
import { apiBlobRequest, apiRequest, type ApiBlob } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The playlists calls of SPEC 7. Failures throw ApiError; callers decide what to show. */

export function fetchPlaylists(signal?: AbortSignal): Promise<PlaylistSummary[]> {
  return apiRequest('playlists', { schema: z.array(playlistSummary), fallbackMessage: translate('playlistsLoadFailed'), signal });
}

export function postPlaylist(body: CreatePlaylistBody): Promise<Playlist> {
  return apiRequest('playlists', { method: 'POST', body, schema: playlist, fallbackMessage: translate('createPlaylistFailed') });
}

export function putPlaylist(id: number, body: UpdatePlaylistBody): Promise<Playlist> {
  return apiRequest(`playlists/${id}`, { method: 'PUT', body, schema: playlist, fallbackMessage: translate('playlistUpdateFailed') });
}

export async function deletePlaylist(id: number): Promise<void> {
  await apiRequest(`playlists/${id}`, { method: 'DELETE', schema: z.unknown(), fallbackMessage: translate('deletePlaylistFailed') });
}

/** Appends a song; the answer is the playlist as it now stands. */
export function postPlaylistSong(id: number, songId: number): Promise<Playlist> {
  return apiRequest(`playlists/${id}/songs`, {
    method: 'POST',
    body: { SongId: songId },
    schema: playlist,
    fallbackMessage: translate('addSongFailed'),
  });
}

/** Saves a new order: the full ordered list of the playlist's song ids. */
export function putPlaylistOrder(id: number, songIds: readonly number[]): Promise<Playlist> {
  return apiRequest(`playlists/${id}/songs`, {
    method: 'PUT',
    body: { songIds },
    schema: playlist,
    fallbackMessage: translate('playlistUpdateFailed'),
  });
}

export function deletePlaylistSong(id: number, songId: number): Promise<Playlist> {
  return apiRequest(`playlists/${id}/songs/${songId}`, {
    method: 'DELETE',
    schema: playlist,
    fallbackMessage: translate('removeSongFailed'),
  });
}

/** The playlist as an M3U8 file of signed stream links, with the name the server gave it. */
export async function fetchPlaylistM3u8(id: number): Promise<ApiBlob> {
  const answer = await apiBlobRequest(`playlists/${id}/m3u8`, { fallbackMessage: translate('exportPlaylistFailed') });
  if (!answer) throw new Error('The export was empty');
  return answer;
}
