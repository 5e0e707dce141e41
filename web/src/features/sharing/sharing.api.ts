import type { SuccessResponse } from '@encore/common/auth.contract';
import { sharingEndpoints, type SendSongLinkBody, type SharedSong } from '@encore/common/library.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The address of a song's page in this app: what SPEC 7 sends as `songUrl`. */
export function songPageUrl(songId: number): string {
  return `${window.location.origin}/music/${songId}`;
}

/**
 * SPEC 7: `POST email/send-song-link` {Email, songUrl}. Encore also sends the song's id; the
 * server mails a link to a public share page of that song, never the URL as given (DECISIONS).
 */
export function postSendSongLink(songId: number, email: string): Promise<SuccessResponse> {
  const body: SendSongLinkBody = { Email: email, songUrl: songPageUrl(songId), songId };
  return callEndpoint(sharingEndpoints.sendSongLink, { body, fallbackMessage: translate('sendEmailFailed') });
}

/** The public view of a shared song; works signed out. */
export function fetchSharedSong(token: string, signal?: AbortSignal): Promise<SharedSong> {
  return callEndpoint(sharingEndpoints.sharedSong, { params: { token }, fallbackMessage: translate('shareInvalid'), signal });
}
