import { likeResponse, songDetail, type SongDetail } from '@encore/common/library.contract';
import { z } from 'zod';
import { apiBlobRequest, apiRequest } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The files calls of SPEC 7. Failures throw ApiError; callers decide what to show. */

/** A server from before sonic analysis sends no `analysis`: the song then reads as not analysed yet. */
const songDetailAnswer = songDetail.extend({ analysis: songDetail.shape.analysis.default(null) });

export function fetchSong(id: number, signal?: AbortSignal): Promise<SongDetail> {
  return apiRequest(`files/${id}`, { schema: songDetailAnswer, fallbackMessage: translate('fetchMusicFileFailed'), signal });
}

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
