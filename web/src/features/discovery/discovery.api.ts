import type { AnalysisProgress } from '@encore/common/analysis.contract';
import { discoveryEndpoints, type GeneratedPlaylist } from '@encore/common/discovery.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';
import type { ChosenSong } from './generated-song-list.component';

/** What the page shows of an answer: the playlist as saved, its songs with their reasons, and the server's note. */
export interface GenerationOutcome {
  id: number;
  name: string;
  description: string | null;
  prompt: string;
  chosen: ChosenSong[];
  /** Set when the answer came from an incomplete analysis ("answered from 412 of 530 analysed songs"). */
  note: string | null;
}

function toOutcome(answer: GeneratedPlaylist): GenerationOutcome {
  return {
    id: answer.id,
    name: answer.name,
    description: answer.description,
    prompt: answer.prompt,
    chosen: answer.songs.map(({ reason, ...song }) => ({ song, reason: reason.trim() ? reason : null })),
    note: answer.note,
  };
}

/** SPEC 7: POST playlists/generate-playlist-by-prompt {prompt}; the answer is saved as one of the caller's playlists. */
export async function postGeneratePlaylist(prompt: string): Promise<GenerationOutcome> {
  const answer = await callEndpoint(discoveryEndpoints.generate, { body: { prompt }, fallbackMessage: translate('aiGenerateFailed') });
  return toOutcome(answer);
}

/** "More like this" (issue 12): a playlist of the songs nearest to this one by their sound. */
export async function postMoreLikeThis(songId: number): Promise<GenerationOutcome> {
  const answer = await callEndpoint(discoveryEndpoints.moreLikeThis, { params: { id: songId }, fallbackMessage: translate('aiGenerateFailed') });
  return toOutcome(answer);
}

/** How much of the library is analysed ("Analysed 412 of 530 songs"). */
export function fetchAnalysisProgress(signal?: AbortSignal): Promise<AnalysisProgress> {
  return callEndpoint(discoveryEndpoints.analysisProgress, { fallbackMessage: translate('aiGenerateFailed'), signal });
}
