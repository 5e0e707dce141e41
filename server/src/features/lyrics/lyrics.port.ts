import type { LyricsDocument } from '@encore/common/lyrics-document.rules';
import { definePort } from '../../modules/module.js';

/** A song's lyrics as other modules may read them (Song2Clip draws them). */
export interface SongLyrics {
  /** The song's lyrics document, or undefined when it has none. */
  lyricsFor(songId: number): Promise<LyricsDocument | undefined>;
}

export const songLyricsPort = definePort<SongLyrics>('song-lyrics', "Reads a song's lyrics (text, line and word timings).");
