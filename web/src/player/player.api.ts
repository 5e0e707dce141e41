import { bookmarksEndpoints } from '@encore/common/bookmarks.contract';
import { libraryEndpoints, type SongListEntry } from '@encore/common/library.contract';
import { listeningEndpoints } from '@encore/common/listening.contract';
import type { ResponseSchema } from '../lib/api-client';
import { callEndpoint } from '../lib/endpoint-client';
import { translate } from '../lib/i18n/i18n.store';
import type { ReplayGain } from './loudness';

/**
 * A short-lived URL of a stream the browser plays (SPEC 7 `GET files/{id}/play`, issue 30's
 * `?format=browser`): the original when browsers play it, else the server's transcode.
 */
export async function fetchPlayUrl(songId: number, signal?: AbortSignal): Promise<string> {
  const { url } = await callEndpoint(libraryEndpoints.playUrl, {
    params: { id: songId },
    query: { format: 'browser' },
    fallbackMessage: translate('fetchSongUrlFailed'),
    signal,
  });
  return url;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Reads `replayGain` out of a song detail; a server that has none yet answers without it. */
const replayGainOfDetail: ResponseSchema<ReplayGain | null> = {
  safeParse(value) {
    const raw = value && typeof value === 'object' ? (value as Record<string, unknown>)['replayGain'] : null;
    if (!raw || typeof raw !== 'object') return { success: true, data: null };
    const rg = raw as Record<string, unknown>;
    return {
      success: true,
      data: {
        trackGain: numberOrNull(rg['trackGain']),
        trackPeak: numberOrNull(rg['trackPeak']),
        albumGain: numberOrNull(rg['albumGain']),
        albumPeak: numberOrNull(rg['albumPeak']),
      },
    };
  },
};

/** The song's loudness (`GET /files/{id}` → replayGain, issue 30); null when not measured. */
export function fetchReplayGain(songId: number, signal?: AbortSignal): Promise<ReplayGain | null> {
  return callEndpoint(libraryEndpoints.get, { params: { id: songId }, schema: replayGainOfDetail, fallbackMessage: translate('fetchLoudnessFailed'), signal });
}

/** Counts a play of the song (issue 30): the player calls it after half the song or 4 minutes. */
export async function postPlay(songId: number): Promise<void> {
  await callEndpoint(listeningEndpoints.countPlay, { params: { id: songId }, schema: anything, fallbackMessage: translate('countPlayFailed') });
}

/** Whether the play was counted is nobody's business here: any answer will do. */
const anything: ResponseSchema<unknown> = { safeParse: (value) => ({ success: true, data: value }) };

/** A song as lists carry it, checked only for what the player reads. */
function isSongEntry(value: unknown): value is SongListEntry {
  if (!value || typeof value !== 'object') return false;
  const song = value as Record<string, unknown>;
  return typeof song['id'] === 'number' && typeof song['displayName'] === 'string';
}

/** One song (`GET /files/{id}`), as a list entry. */
export function fetchSong(songId: number, signal?: AbortSignal): Promise<SongListEntry> {
  const schema: ResponseSchema<SongListEntry> = {
    safeParse: (value) => (isSongEntry(value) ? { success: true, data: value } : { success: false, error: new Error('Not a song') }),
  };
  return callEndpoint(libraryEndpoints.get, { params: { id: songId }, schema, fallbackMessage: translate('fetchSongFailed'), signal });
}

export { isSongEntry };

/** The caller's bookmark of a song, in milliseconds; null when there is none (issue 41). */
export async function fetchBookmark(songId: number): Promise<number | null> {
  const { bookmark } = await callEndpoint(bookmarksEndpoints.get, { params: { songId }, fallbackMessage: translate('bookmarkFailed') });
  return bookmark?.positionMs ?? null;
}

export async function putBookmark(songId: number, positionMs: number): Promise<void> {
  await callEndpoint(bookmarksEndpoints.save, { params: { songId }, body: { positionMs }, fallbackMessage: translate('bookmarkFailed') });
}

export async function deleteBookmark(songId: number): Promise<void> {
  await callEndpoint(bookmarksEndpoints.delete, { params: { songId }, fallbackMessage: translate('bookmarkFailed') });
}
