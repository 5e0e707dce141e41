import { playUrlResponse } from '@encore/common/library.contract';
import { apiRequest } from '../lib/api-client';
import { translate } from '../lib/i18n/i18n.store';

/** A short-lived signed URL that streams the song (SPEC 7: `GET files/{id}/play`). */
export async function fetchPlayUrl(songId: number, signal?: AbortSignal): Promise<string> {
  const { url } = await apiRequest(`files/${songId}/play`, {
    schema: playUrlResponse,
    fallbackMessage: translate('fetchSongUrlFailed'),
    signal,
  });
  return url;
}
