import { radioEndpoints, type RadioNowPlaying, type RadioStation, type RadioStationsResponse, type SaveRadioStationBody } from '@encore/common/radio.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The radio calls (issue 41). Failures throw ApiError; callers decide what to show. */

export function fetchRadioStations(signal?: AbortSignal): Promise<RadioStationsResponse> {
  return callEndpoint(radioEndpoints.list, { fallbackMessage: translate('radioLoadFailed'), signal });
}

export function postRadioStation(body: SaveRadioStationBody): Promise<RadioStation> {
  return callEndpoint(radioEndpoints.create, { body, fallbackMessage: translate('radioSaveFailed') });
}

export function putRadioStation(id: number, body: SaveRadioStationBody): Promise<RadioStation> {
  return callEndpoint(radioEndpoints.update, { params: { id }, body, fallbackMessage: translate('radioSaveFailed') });
}

export async function deleteRadioStation(id: number): Promise<void> {
  await callEndpoint(radioEndpoints.delete, { params: { id }, fallbackMessage: translate('radioDeleteFailed') });
}

export function fetchNowPlaying(id: number, signal?: AbortSignal): Promise<RadioNowPlaying> {
  return callEndpoint(radioEndpoints.nowPlaying, { params: { id }, fallbackMessage: translate('radioLoadFailed'), signal });
}
