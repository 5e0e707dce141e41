import { listeningEndpoints, type ListenBrainzStatus } from '@encore/common/listening.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The caller's link to ListenBrainz (issue 30); failures throw `ApiError`. */
export const listenBrainzQueryKey = ['listening', 'listenbrainz'] as const;

export function fetchListenBrainz(signal?: AbortSignal): Promise<ListenBrainzStatus> {
  return callEndpoint(listeningEndpoints.listenBrainz, { fallbackMessage: translate('listenBrainzLoadFailed'), signal });
}

/** Checked with ListenBrainz by the server: 400 when it refuses the token, 503 when it cannot be reached. */
export function connectListenBrainz(token: string): Promise<ListenBrainzStatus> {
  return callEndpoint(listeningEndpoints.linkListenBrainz, { body: { token }, fallbackMessage: translate('listenBrainzConnectFailed') });
}

export async function disconnectListenBrainz(): Promise<void> {
  await callEndpoint(listeningEndpoints.unlinkListenBrainz, { fallbackMessage: translate('listenBrainzDisconnectFailed') });
}
