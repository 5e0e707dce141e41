import {
  smartPlaylistsEndpoints,
  type PreviewSmartPlaylistBody,
  type SaveSmartPlaylistBody,
  type SmartPlaylist,
  type SmartSongsPage,
} from '@encore/common/smart-playlist.contract';
import type { ApiBlob } from '../../../lib/api-client';
import { callBlobEndpoint, callEndpoint } from '../../../lib/endpoint-client';
import { translate } from '../../../lib/i18n/i18n.store';

/** The smart playlist calls (issue 41). Failures throw ApiError; callers decide what to show. */

export function fetchSmartPlaylists(signal?: AbortSignal): Promise<SmartPlaylist[]> {
  return callEndpoint(smartPlaylistsEndpoints.list, { fallbackMessage: translate('smartLoadFailed'), signal });
}

export function fetchSmartPlaylist(id: number, signal?: AbortSignal): Promise<SmartPlaylist> {
  return callEndpoint(smartPlaylistsEndpoints.get, { params: { id }, fallbackMessage: translate('smartLoadFailed'), signal });
}

export function fetchSmartSongs(id: number, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<SmartSongsPage> {
  return callEndpoint(smartPlaylistsEndpoints.songs, { params: { id }, query: page, fallbackMessage: translate('smartLoadFailed'), signal });
}

export function postSmartPlaylist(body: SaveSmartPlaylistBody): Promise<SmartPlaylist> {
  return callEndpoint(smartPlaylistsEndpoints.create, { body, fallbackMessage: translate('smartSaveFailed') });
}

export function putSmartPlaylist(id: number, body: SaveSmartPlaylistBody): Promise<SmartPlaylist> {
  return callEndpoint(smartPlaylistsEndpoints.update, { params: { id }, body, fallbackMessage: translate('smartSaveFailed') });
}

export async function deleteSmartPlaylist(id: number): Promise<void> {
  await callEndpoint(smartPlaylistsEndpoints.delete, { params: { id }, fallbackMessage: translate('smartDeleteFailed') });
}

export function postSmartPreview(body: PreviewSmartPlaylistBody, signal?: AbortSignal): Promise<SmartSongsPage> {
  return callEndpoint(smartPlaylistsEndpoints.preview, { body, fallbackMessage: translate('smartPreviewFailed'), signal });
}

/** A .nsp file's text, sent as it is (comments and all): the server reads it. */
export function postSmartImport(text: string): Promise<SmartPlaylist> {
  return callEndpoint(smartPlaylistsEndpoints.import, { body: text, fallbackMessage: translate('smartImportFailed') });
}

export async function fetchSmartExport(id: number, format: 'nsp' | 'm3u8'): Promise<ApiBlob> {
  const endpoint = format === 'nsp' ? smartPlaylistsEndpoints.exportNsp : smartPlaylistsEndpoints.exportM3u8;
  const answer = await callBlobEndpoint(endpoint, { params: { id }, fallbackMessage: translate('smartExportFailed') });
  if (!answer) throw new Error('The export was empty');
  return answer;
}
