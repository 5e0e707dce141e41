import type { Word } from '@encore/common/words.contract';

/**
 * Karaoke (SPEC 4) helpers of the view: how far a word is sung, and which way the lyrics read.
 * The line at a time and each line's words are common's (`currentLineIndex`, `wordsPerLine`).
 */

/** How much of a word has been sung at `time`: 0 before its start, 1 after its end. */
export function wordFill(word: Word, time: number): number {
  if (time <= word.start) return 0;
  if (time >= word.end || word.end <= word.start) return 1;
  return (time - word.start) / (word.end - word.start);
}

/** True when text is mostly right-to-left script (Hebrew, Arabic): the lyrics read right to left. */
export function isRightToLeft(lyrics: string): boolean {
  // Section headers ([Chorus]) are often in English even in a Hebrew song.
  const text = lyrics.replace(/\[[^\]\n]*\]/gu, '');
  const rtl = text.match(/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/gu)?.length ?? 0;
  const ltr = text.match(/[A-Za-z\u00c0-\u024f\u0400-\u04ff]/gu)?.length ?? 0;
  return rtl > ltr;
}
