import type { Word } from '@encore/common/words.contract';

/**
 * Karaoke (SPEC 4): which line, and which word in it, the song is at. Pure, so the view, the
 * sing-along screen and the benchmark agree; the lines carry SPEC 3's times (the server fills
 * in SPEC 9's rule for lines without their own), the words SPEC 3's Word times.
 */

export interface TimedLine {
  text: string;
  startTime: number;
  endTime: number;
  isHeader: boolean;
}

/** The index of the last line that has started at `time`; -1 before the first. Binary search. */
export function activeLineIndex(lines: readonly { startTime: number }[], time: number): number {
  let low = 0;
  let high = lines.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (lines[middle]!.startTime <= time) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * The words sung in each line: a word belongs to the line whose time span holds its start
 * (the words are in time order, as the lines are). A line sung without word times gets none.
 */
export function wordsByLine(lines: readonly TimedLine[], words: readonly Word[]): Word[][] {
  const result: Word[][] = lines.map(() => []);
  if (words.length === 0 || lines.length === 0) return result;
  for (const word of words) {
    const index = activeLineIndex(lines, word.start + 1e-6);
    // A word before the first line's start goes with the first line.
    const line = index < 0 ? 0 : index;
    // Headers are not sung: their words go to the next sung line.
    let target = line;
    while (lines[target]?.isHeader && target < lines.length - 1) target += 1;
    result[target]!.push(word);
  }
  return result;
}

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
