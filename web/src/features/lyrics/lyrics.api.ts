import { libraryEndpoints, song as songSchema, type Song } from '@encore/common/library.contract';
import {
  lyricsEndpoints,
  type ApplyCandidateBody,
  type LyricsCandidates,
  type LyricsExportFormat,
  type LyricsModel,
  type LyricsTranscriptResponse,
} from '@encore/common/lyrics.contract';
import type { Word } from '@encore/common/words.contract';
import type { ApiBlob } from '../../lib/api-client';
import { callBlobEndpoint, callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/**
 * The lyrics calls of issue 11 (`common/src/lyrics.contract.ts`): SPEC 7's PUT lyrics and the
 * transcription, the lookup, the export. Failures throw ApiError; callers decide what to show.
 */

export const LYRICS_EXPORT_FORMATS: readonly LyricsExportFormat[] = ['lrc', 'elrc', 'srt', 'txt'];

export function fetchSongForLyrics(id: number, signal?: AbortSignal): Promise<Song> {
  return callEndpoint(libraryEndpoints.get, { params: { id }, schema: songSchema, fallbackMessage: translate('fetchMusicFileFailed'), signal });
}

export function fetchLyrics(id: number, signal?: AbortSignal): Promise<LyricsModel> {
  return callEndpoint(lyricsEndpoints.get, { params: { id }, fallbackMessage: translate('lyricsLoadFailed'), signal });
}

/** SPEC 7's `PUT files/{id}/lyrics {transcript}`: plain text, LRC, ELRC or SRT (the server tells them apart). */
export function putTranscript(id: number, transcript: string): Promise<LyricsTranscriptResponse> {
  return callEndpoint(lyricsEndpoints.put, { params: { id }, body: { transcript }, fallbackMessage: translate('lyricsSaveFailed') });
}

/**
 * The word editor's Save: SPEC 3's Words, timings of the lyrics' words; with `transcript` when
 * the editor changed the words themselves (the text is then that transcript).
 */
export function putWords(id: number, words: readonly Word[], transcript?: string): Promise<LyricsTranscriptResponse> {
  const body = transcript === undefined ? { words: [...words] } : { transcript, words: [...words] };
  return callEndpoint(lyricsEndpoints.put, { params: { id }, body, fallbackMessage: translate('wordSaveFailed') });
}

export function fetchOnlineCandidates(id: number, signal?: AbortSignal): Promise<LyricsCandidates> {
  return callEndpoint(lyricsEndpoints.onlineCandidates, { params: { id }, fallbackMessage: translate('lyricsOnlineFailed'), signal });
}

export function applyOnlineCandidate(id: number, body: ApplyCandidateBody): Promise<LyricsTranscriptResponse> {
  return callEndpoint(lyricsEndpoints.applyOnline, { params: { id }, body, fallbackMessage: translate('lyricsSaveFailed') });
}

/** Starts the transcription job and answers its task id at once; the task carries the progress. */
export async function startTranscription(id: number): Promise<string> {
  const { taskId } = await callEndpoint(lyricsEndpoints.startTranscription, { params: { id }, body: {}, fallbackMessage: translate('lyricsTranscribeFailed') });
  return taskId;
}

export async function downloadLyrics(id: number, format: LyricsExportFormat): Promise<ApiBlob> {
  const answer = await callBlobEndpoint(lyricsEndpoints.export, { params: { id }, query: { format }, fallbackMessage: translate('lyricsExportFailed') });
  if (!answer) throw new Error('The export was empty');
  return answer;
}
