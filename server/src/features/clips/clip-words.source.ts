import type { ClipLyrics } from '@encore/common/clip-text';
import { documentLines, type LyricsDocument } from '@encore/common/lyrics-document.rules';

/**
 * Where a song's lyrics come from when the clip brings no words of its own. The lyrics
 * feature implements this; features.ts wires it to the stored lyrics.
 */
export interface ClipLyricsSource {
  lyricsFor(songId: number): Promise<LyricsDocument | undefined>;
}

/**
 * The lyrics as the editor's preview receives them (the lyrics model's `lines` and `words`):
 * SPEC 3's lines timed against the song's duration (SPEC 9's rule where they have no times).
 */
export function clipLyricsOf(document: LyricsDocument, durationSeconds: number | null): ClipLyrics {
  return { lines: documentLines(document, durationSeconds), words: document.words };
}
