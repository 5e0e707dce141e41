import { WORD_TEXT_MAX, WORD_TIME_MAX, WORD_TIME_MIN, type Word } from '@encore/common/words.contract';

/** What is wrong with one word, as the editor shows it under the row (catalogue keys). */
export type WordProblem = 'wordTimeInvalid' | 'wordEndBeforeStart' | 'wordPastSongEnd' | 'wordTextTooLong';

function validTime(seconds: number): boolean {
  return Number.isFinite(seconds) && seconds >= WORD_TIME_MIN && seconds <= WORD_TIME_MAX;
}

/**
 * The problems of one word (SPEC 5: numeric times from 0), the same rules the server applies,
 * plus the song's end when it is known. An empty list means it can be saved.
 */
export function wordProblems(word: Word, songDuration: number | null): WordProblem[] {
  const problems: WordProblem[] = [];
  if (!validTime(word.start) || !validTime(word.end)) problems.push('wordTimeInvalid');
  else if (word.end < word.start) problems.push('wordEndBeforeStart');
  else if (songDuration !== null && songDuration > 0 && word.end > songDuration + 0.05) problems.push('wordPastSongEnd');
  if (word.text.length > WORD_TEXT_MAX) problems.push('wordTextTooLong');
  return problems;
}

/** Parses a time typed into a start or end field: a number of seconds from 0, else null. */
export function parseTypedTime(typed: string): number | null {
  const text = typed.trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) return null;
  const seconds = Number(text);
  return validTime(seconds) ? seconds : null;
}
