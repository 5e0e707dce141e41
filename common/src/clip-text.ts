import type { LyricsLine } from './lyrics-timing.rules.js';
import type { Word } from './words.contract.js';

/**
 * What a clip draws, decided once for the browser preview and the renderer: the editor's words
 * when there are any, else the song's lyrics: its word timings (karaoke), else its lines at
 * their times (an LRC line's own time, or SPEC 9's rule for untimed lyrics), each line's words
 * sharing its time, else nothing.
 */

/** A word of the clip's text (song seconds); `lineStart` marks the first word of a lyrics line, where the layout starts a new screen. */
export interface ClipWord extends Word {
  lineStart?: boolean;
}

export interface ClipText {
  words: ClipWord[];
  /** True when the words carry their own times (the highlight moves word by word); false when they share their line's. */
  karaoke: boolean;
  /** Where the text came from, for the editor to say. */
  from: 'words' | 'lyrics-words' | 'lyrics-lines' | 'none';
}

/** The song's lyrics as the lyrics model gives them (`GET /files/{id}/lyrics`): SPEC 3's lines, times filled by SPEC 9's rule, and the words when timed by word. */
export interface ClipLyrics {
  lines: readonly LyricsLine[];
  words: readonly Word[] | null;
}

export const NO_CLIP_TEXT: ClipText = { words: [], karaoke: false, from: 'none' };

export function clipText(editorWords: readonly Word[], lyrics: ClipLyrics | null | undefined): ClipText {
  const own = editorWords.filter((word) => word.text.trim() !== '');
  if (own.length > 0) return { words: [...own], karaoke: own.some((word) => word.end > 0), from: 'words' };
  const sung = (lyrics?.words ?? []).filter((word) => word.text.trim() !== '');
  if (sung.length > 0) return { words: [...sung], karaoke: true, from: 'lyrics-words' };
  const words = wordsOfLines(lyrics?.lines ?? []);
  return words.length > 0 ? { words, karaoke: false, from: 'lyrics-lines' } : NO_CLIP_TEXT;
}

/** Each sung line's words share its time evenly; headers and empty lines are not drawn. */
export function wordsOfLines(lines: readonly LyricsLine[]): ClipWord[] {
  const words: ClipWord[] = [];
  for (const line of lines) {
    if (line.isHeader) continue;
    const tokens = line.text
      .trim()
      .split(/\s+/u)
      .filter((token) => token !== '');
    if (tokens.length === 0) continue;
    const step = Math.max(0, line.endTime - line.startTime) / tokens.length;
    tokens.forEach((text, index) => {
      const start = line.startTime + step * index;
      words.push({ text, start, end: index === tokens.length - 1 ? Math.max(start, line.endTime) : start + step, ...(index === 0 ? { lineStart: true } : {}) });
    });
  }
  return words;
}
