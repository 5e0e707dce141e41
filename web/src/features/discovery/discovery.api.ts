import { song } from '@encore/common/library.contract';
import { playlist, type Playlist } from '@encore/common/playlists.contract';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';
import { translate } from '../../lib/i18n/i18n.store';
import type { AnalysisCoverage } from './analysis-coverage.component';
import type { ChosenSong } from './generated-song-list.component';

// TEMPORARY until common/src/discovery.contract.ts lands from h-ai-srv.
const generatedPlaylist = playlist.extend({
  songs: z.array(song.extend({ reason: z.string().nullish() })),
  analysis: z.object({ analysed: z.number().int(), total: z.number().int() }).nullish(),
});
type GeneratedPlaylist = z.infer<typeof generatedPlaylist>;

/** What the page shows of an answer: the playlist as saved, its songs with reasons, the analysis coverage. */
export interface GenerationOutcome {
  playlist: Playlist;
  chosen: ChosenSong[];
  coverage: AnalysisCoverage | null;
}

function toOutcome(answer: GeneratedPlaylist): GenerationOutcome {
  const songs = answer.songs.map(({ reason: _reason, ...rest }) => rest);
  return {
    playlist: { ...answer, songs },
    chosen: answer.songs.map(({ reason, ...rest }) => ({ song: rest, reason: reason ?? null })),
    coverage: answer.analysis ?? null,
  };
}

/** SPEC 7: POST playlists/generate-playlist-by-prompt {prompt}; the answer is saved as one of the caller's playlists. */
export async function postGeneratePlaylist(prompt: string): Promise<GenerationOutcome> {
  const answer = await apiRequest('playlists/generate-playlist-by-prompt', {
    method: 'POST',
    body: { prompt },
    schema: generatedPlaylist,
    fallbackMessage: translate('aiGenerateFailed'),
  });
  return toOutcome(answer);
}
