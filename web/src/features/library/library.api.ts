import { libraryEndpoints } from '@encore/common/library.contract';
import { callBlobEndpoint, callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The files calls of SPEC 7. Failures throw ApiError; callers decide what to show. */

export function postToggleLike(id: number) {
  return callEndpoint(libraryEndpoints.toggleLike, { params: { id }, fallbackMessage: translate('toggleLikeFailed') });
}

export async function deleteSong(id: number): Promise<void> {
  await callEndpoint(libraryEndpoints.delete, { params: { id }, fallbackMessage: translate('deleteSongFailed') });
}

/** The original file as uploaded (`GET files/{id}/download`), with the name the server gave it. */
export async function fetchSongFile(id: number): Promise<{ blob: Blob; fileName: string | null }> {
  const answer = await callBlobEndpoint(libraryEndpoints.download, { params: { id }, fallbackMessage: translate('downloadFailed') });
  if (!answer || answer.blob.size === 0) throw new Error('The download was empty');
  return answer;
}
