import { CLIP_FORM_FIELDS, clipsEndpoints, type ClipSettings, type ClipStatusResponse } from '@encore/common/clips.contract';
import type { ClipLyrics } from '@encore/common/clip-text';
import { libraryEndpoints, type SongListEntry } from '@encore/common/library.contract';
import { lyricsEndpoints, lyricsLineSchema } from '@encore/common/lyrics.contract';
import type { Word } from '@encore/common/words.contract';
import { z } from 'zod';
import { isApiError } from '../../lib/api-client';
import { callEndpoint, endpointUrl } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** Song2Clip's calls (SPEC 7, DECISIONS: the clip service under /api/clips). Failures throw ApiError. */

export const SONG_PICKER_LIMIT = 50;

/** The server's song search (`GET files?q=&limit=`): the picker never loads the whole library. */
export function searchSongs(text: string, signal?: AbortSignal): Promise<SongListEntry[]> {
  return callEndpoint(libraryEndpoints.list, {
    query: { q: text.trim() || undefined, limit: SONG_PICKER_LIMIT },
    fallbackMessage: translate('fetchMusicFilesFailed'),
    signal,
  });
}

const songLyrics = z.object({
  lines: z.array(lyricsLineSchema).optional(),
  words: z
    .array(z.object({ text: z.string(), start: z.number(), end: z.number() }))
    .nullable()
    .optional(),
});

export interface SongLyricsForClip {
  /** The timed words: the words held in app state that a clip is created with (SPEC 3). */
  words: Word[];
  /** The lyrics as the renderer reads them, drawn when there are no words; null when the song has none. */
  lyrics: ClipLyrics | null;
}

/** The song's lyrics (`GET files/{id}/lyrics`). A song without lyrics (404) has none. */
export async function fetchSongLyrics(songId: number, signal?: AbortSignal): Promise<SongLyricsForClip> {
  try {
    const answer = await callEndpoint(lyricsEndpoints.get, {
      params: { id: songId },
      schema: songLyrics,
      fallbackMessage: translate('clipWordsFailed'),
      signal,
    });
    const words = answer.words ?? [];
    const lines = answer.lines ?? [];
    return { words, lyrics: lines.length > 0 || words.length > 0 ? { lines, words: answer.words ?? null } : null };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { words: [], lyrics: null };
    throw error;
  }
}

/** SPEC 7: multipart settings (JSON with the words), songUrl, one mediaFiles entry per file. */
export function createClip(settings: ClipSettings, songUrl: string, files: readonly File[]) {
  const form = new FormData();
  form.append(CLIP_FORM_FIELDS.settings, JSON.stringify(settings));
  form.append(CLIP_FORM_FIELDS.songUrl, songUrl);
  for (const file of files) form.append(CLIP_FORM_FIELDS.mediaFiles, file, file.name);
  return callEndpoint(clipsEndpoints.create, { body: form, fallbackMessage: translate('clipCreateFailed') });
}

export function fetchClipStatus(taskId: string, signal?: AbortSignal): Promise<ClipStatusResponse> {
  return callEndpoint(clipsEndpoints.status, { params: { task_id: taskId }, fallbackMessage: translate('clipStatusFailed'), signal });
}

/** Deleting a clip cancels its running render (the editor's Cancel). */
export async function deleteClip(clipId: number): Promise<void> {
  await callEndpoint(clipsEndpoints.delete, { params: { id: clipId }, fallbackMessage: translate('clipCancelFailed') });
}

/** The song as the create-clip call names it: an Encore API path (the server accepts nothing else). */
export function songUrlFor(songId: number): string {
  return endpointUrl(libraryEndpoints.playUrl, { params: { id: songId } });
}

/** The query key of the caller's clips: the My clips page and the created clip's panel share it. */
export const MY_CLIPS_QUERY_KEY = ['clips', 'mine'] as const;

/** The caller's clips (`GET /api/clips`): the created clip's download link is there. */
export async function fetchMyClips(signal?: AbortSignal) {
  const { clips } = await callEndpoint(clipsEndpoints.list, { fallbackMessage: translate('clipListFailed'), signal });
  return clips;
}
