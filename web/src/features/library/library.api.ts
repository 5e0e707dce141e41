import { likeResponse } from '@encore/common/library.contract';
import { z } from 'zod';
import { apiBlobRequest, apiRequest } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The files calls of SPEC 7. Failures throw ApiError; callers decide what to show. */

export function postToggleLike(id: number) {
  return apiRequest(`files/${id}/like`, {
    method: 'POST',
    schema: likeResponse,
    fallbackMessage: translate('toggleLikeFailed'),
  });
}

export async function deleteSong(id: number): Promise<void> {
  await apiRequest(`files/${id}`, {
    method: 'DELETE',
    schema: z.unknown(),
    fallbackMessage: translate('deleteSongFailed'),
  });
}

/** The original file as uploaded (`GET files/{id}/download`), with the name the server gave it. */
export async function fetchSongFile(id: number): Promise<{ blob: Blob; fileName: string | null }> {
  const answer = await apiBlobRequest(`files/${id}/download`, { fallbackMessage: translate('downloadFailed') });
  if (!answer || answer.blob.size === 0) throw new Error('The download was empty');
  return answer;
}
