import {
  playlistsEndpoints,
  type CreatePlaylistBody,
  type Playlist,
  type PlaylistImportResult,
  type PlaylistSummary,
  type UpdatePlaylistBody,
} from '@encore/common/playlists.contract';
import type { ApiBlob } from '../../lib/api-client';
import { callBlobEndpoint, callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The playlists calls of SPEC 7. Failures throw ApiError; callers decide what to show. */

export function fetchPlaylists(signal?: AbortSignal): Promise<PlaylistSummary[]> {
  return callEndpoint(playlistsEndpoints.list, { fallbackMessage: translate('playlistsLoadFailed'), signal });
}

export function postPlaylist(body: CreatePlaylistBody): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.create, { body, fallbackMessage: translate('createPlaylistFailed') });
}

export function putPlaylist(id: number, body: UpdatePlaylistBody): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.update, { params: { id }, body, fallbackMessage: translate('playlistUpdateFailed') });
}

/** Keeps an AI playlist fresh (ranked again when songs are added or analysed), or stops. */
export function patchPlaylistKeepFresh(id: number, keepFresh: boolean): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.patch, { params: { id }, body: { keepFresh }, fallbackMessage: translate('keepFreshFailed') });
}

export async function deletePlaylist(id: number): Promise<void> {
  await callEndpoint(playlistsEndpoints.delete, { params: { id }, fallbackMessage: translate('deletePlaylistFailed') });
}

/** Appends a song; the answer is the playlist as it now stands. */
export function postPlaylistSong(id: number, songId: number): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.addSong, { params: { id }, body: { SongId: songId }, fallbackMessage: translate('addSongFailed') });
}

/** Appends several songs in this order (an album); those already in the playlist are skipped. */
export function postPlaylistSongs(id: number, songIds: readonly number[]): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.addSong, { params: { id }, body: { songIds: [...songIds] }, fallbackMessage: translate('addSongFailed') });
}

/** Saves a new order: the full ordered list of the playlist's song ids. */
export function putPlaylistOrder(id: number, songIds: readonly number[]): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.reorder, { params: { id }, body: { songIds: [...songIds] }, fallbackMessage: translate('playlistUpdateFailed') });
}

export function deletePlaylistSong(id: number, songId: number): Promise<Playlist> {
  return callEndpoint(playlistsEndpoints.removeSong, { params: { id, songId }, fallbackMessage: translate('removeSongFailed') });
}

/** Appends the songs an M3U or M3U8 file's text names; the answer is the playlist as it now stands and what was found. */
export function postPlaylistImport(id: number, text: string): Promise<PlaylistImportResult> {
  return callEndpoint(playlistsEndpoints.importM3u, { params: { id }, body: { text }, fallbackMessage: translate('importPlaylistFailed') });
}

/** The playlist as an M3U8 file of signed stream links, with the name the server gave it. */
export async function fetchPlaylistM3u8(id: number): Promise<ApiBlob> {
  const answer = await callBlobEndpoint(playlistsEndpoints.exportM3u8, { params: { id }, fallbackMessage: translate('exportPlaylistFailed') });
  if (!answer) throw new Error('The export was empty');
  return answer;
}
