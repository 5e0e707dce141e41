import { libraryEndpoints, songDetail, type SongDetail } from '@encore/common/library.contract';
import { callEndpoint } from './endpoint-client';
import { translate } from './i18n/i18n.store';

/** A server from before sonic analysis sends no `analysis`: the song then reads as not analysed yet. */
const songDetailAnswer = songDetail.extend({ analysis: songDetail.shape.analysis.default(null) });

/**
 * One song (`GET files/{id}`), cached under `songQueryKeys.detail(id)` by the song page and by
 * the playlist covers alike: one fetch for that key.
 */
export function fetchSong(id: number, signal?: AbortSignal): Promise<SongDetail> {
  return callEndpoint(libraryEndpoints.get, { params: { id }, schema: songDetailAnswer, fallbackMessage: translate('fetchMusicFileFailed'), signal });
}
