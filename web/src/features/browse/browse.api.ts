import { browseEndpoints, type ListAlbumsOptions, type ListArtistsOptions } from '@encore/common/browse.contract';
import { libraryEndpoints } from '@encore/common/library.contract';
import { callBlobEndpoint, callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The browse calls (issue 38). Failures throw ApiError; callers decide what to show. */

export const fetchArtists = (query: ListArtistsOptions, signal?: AbortSignal) =>
  callEndpoint(browseEndpoints.artists, { query, fallbackMessage: translate('browseLoadFailed'), signal });

export const fetchArtist = (id: string, signal?: AbortSignal) =>
  callEndpoint(browseEndpoints.artist, { params: { id }, fallbackMessage: translate('browseLoadFailed'), signal });

export const fetchAlbums = (query: ListAlbumsOptions, signal?: AbortSignal) =>
  callEndpoint(browseEndpoints.albums, { query, fallbackMessage: translate('browseLoadFailed'), signal });

export const fetchAlbum = (id: string, signal?: AbortSignal) =>
  callEndpoint(browseEndpoints.album, { params: { id }, fallbackMessage: translate('browseLoadFailed'), signal });

export const fetchGenres = (signal?: AbortSignal) => callEndpoint(browseEndpoints.genres, { fallbackMessage: translate('browseLoadFailed'), signal });

/** The album's zip (the server streams it; a call with the bearer header is saved from memory). */
export async function fetchAlbumZip(id: string): Promise<{ blob: Blob; fileName: string | null }> {
  const answer = await callBlobEndpoint(browseEndpoints.albumDownload, { params: { id }, fallbackMessage: translate('browseDownloadFailed') });
  if (!answer || answer.blob.size === 0) throw new Error('The download was empty');
  return answer;
}

/** Likes or unlikes one song (the library's toggle); answers the song's new state. */
export const postSongLike = (id: number) => callEndpoint(libraryEndpoints.toggleLike, { params: { id }, fallbackMessage: translate('browseLikeFailed') });
