import type { Word } from './words.contract.js';

/**
 * Lines from timed words (a transcription), so the transcript reads as lyrics rather than one
 * paragraph: a line ends at a sung pause or at the end of a sentence, a long line breaks at a
 * comma or at its length cap, and a long silence starts a new stanza (a blank line).
 */

/** A pause this long between two words ends the line. */
export const LINE_BREAK_PAUSE_SECONDS = 0.7;
/** A silence this long also leaves a blank line (a new stanza). */
export const STANZA_BREAK_PAUSE_SECONDS = 3;
/** A line may break at a comma once it has this many words. */
export const LINE_SOFT_WORDS = 6;
/** A line never holds more words than this. */
export const LINE_MAX_WORDS = 12;

export interface BuiltLine {
  /** The line's text: its words joined by single spaces; '' for a stanza break. */
  text: string;
  /** Indexes into the words given, [first, last); equal for a stanza break. */
  from: number;
  to: number;
}

export function buildLinesFromWords(words: readonly Word[]): BuiltLine[] {
  const lines: BuiltLine[] = [];
  let from = 0;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const next = words[i + 1];
    const count = i + 1 - from;
    const gap = next ? next.start - word.end : 0;
    const sentenceEnd = /[.!?…。！？]["'”’)\]]*$/u.test(word.text);
    const commaEnd = /[,;:،，、]["'”’)\]]*$/u.test(word.text);
    const breakHere = !next || gap >= LINE_BREAK_PAUSE_SECONDS || sentenceEnd || count >= LINE_MAX_WORDS || (commaEnd && count >= LINE_SOFT_WORDS);
    if (!breakHere) continue;
    lines.push({
      text: words
        .slice(from, i + 1)
        .map((w) => w.text.trim())
        .filter(Boolean)
        .join(' '),
      from,
      to: i + 1,
    });
    from = i + 1;
    if (next && gap >= STANZA_BREAK_PAUSE_SECONDS) lines.push({ text: '', from, to: from });
  }
  return lines.filter((line) => line.text !== '' || line.from === line.to);
}

/** The text of `buildLinesFromWords`, one line per row. */
export function textFromWords(words: readonly Word[]): string {
  return buildLinesFromWords(words)
    .map((line) => line.text)
    .join('\n');
}
