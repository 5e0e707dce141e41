import { libraryEndpoints } from '@encore/common/library.contract';
import { callEndpoint } from '../lib/endpoint-client';
import { translate } from '../lib/i18n/i18n.store';

/** A short-lived signed URL that streams the song (SPEC 7: `GET files/{id}/play`). */
export async function fetchPlayUrl(songId: number, signal?: AbortSignal): Promise<string> {
  const { url } = await callEndpoint(libraryEndpoints.playUrl, { params: { id: songId }, fallbackMessage: translate('fetchSongUrlFailed'), signal });
  return url;
}
