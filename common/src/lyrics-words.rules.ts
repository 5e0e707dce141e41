import type { Word } from './words.contract.js';
import { alignKeys, alignmentKey, spread } from './lyrics-align.rules.js';
import { documentLines, lineTokens, type LyricsDocument } from './lyrics-document.rules.js';
import { textFromWords } from './lyrics-lines.rules.js';
import { isEmptyLine, isHeaderLine, splitLines, type LyricsLine } from './lyrics-timing.rules.js';

/**
 * The word-timing editor's words and the lyrics text they belong to. Words are timings of the
 * text's sung tokens: the editor starts from every token of the text, a change of its words
 * rewrites only the lines those words are in, and timings sent for some tokens leave the
 * others (and every line) as they were.
 */

/** Above this many cells the time-aware matching gives way to the plain alignment. */
const MATCH_MAX_CELLS = 4_000_000;
/** A matched pair is worth more than any sum of time distances (a song is under 86 400 s). */
const MATCH_WORTH = 1e10;

/**
 * Words as stored: trimmed, one per sung token (a word with spaces becomes one per token, its
 * time shared by length), square brackets as parentheses (they would make a line a header),
 * ordered by start (stable). Other fields of a word go with each of its tokens.
 */
export function sungWords<W extends Word>(words: readonly W[]): W[] {
  return words
    .flatMap((word) => {
      const tokens = word.text.trim().replace(/\[/g, '(').replace(/\]/g, ')').split(/\s+/u).filter(Boolean);
      return tokens.length <= 1 ? tokens.map((text) => ({ ...word, text })) : spread(tokens, word.start, word.end).map((piece) => ({ ...word, ...piece }));
    })
    .map((word, index) => ({ word, index }))
    .sort((a, b) => a.word.start - b.word.start || a.index - b.index)
    .map(({ word }) => word);
}

/** Each sung token of the lines, in order, sharing its line's time by length. */
export function wordsFromLines(lines: readonly LyricsLine[]): Word[] {
  return lines.flatMap((line) => {
    if (line.isHeader || isHeaderLine(line.text) || isEmptyLine(line.text)) return [];
    return spread(line.text.trim().split(/\s+/u), line.startTime, Math.max(line.startTime, line.endTime));
  });
}

/** One word per sung token of the document: its own when timed by word, else from its lines. */
export function documentWords(document: LyricsDocument, durationSeconds: number | null | undefined): Word[] {
  if (document.words && document.words.length > 0) return document.words;
  return wordsFromLines(documentLines(document, durationSeconds));
}

/** A word of the editor, with the token of the text it was (or was made from) when known. */
export interface PlacedWord extends Word {
  token?: number | undefined;
}

/**
 * The text after the editor changed its words (`words` in sung order): headers, blank lines
 * and line breaks stay; a line whose words are all gone goes. A word stays in the line of its
 * token; a word without one (added, or the second half of a split) joins the word before it.
 * Without any tokens known, words are paired with the text's by spelling, and a changed word
 * takes the line of the word it replaced. Lines never go backwards: the text reads in the
 * words' order.
 */
export function textWithWords(text: string, words: readonly PlacedWord[]): string {
  const tokensPerLine = lineTokens(text);
  const tokenLines = tokensPerLine.flatMap((tokens, line) => tokens.map(() => line));
  const lines = splitLines(text);
  if (tokenLines.length === 0) {
    const added = textFromWords(words);
    return [...lines, ...(added === '' ? [] : [added])].join('\n').replace(/^\n+/, '');
  }
  const known = words.some((word) => word.token !== undefined);
  const placed = known ? linesByToken(tokenLines, words) : linesBySpelling(tokenLines, tokensPerLine.flat(), words);
  const wordsOfLine = lines.map((): string[] => []);
  let previous = 0;
  words.forEach((word, index) => {
    previous = Math.max(previous, placed[index]!);
    wordsOfLine[previous]!.push(word.text);
  });
  return lines
    .flatMap((line, index) => (tokensPerLine[index]!.length === 0 ? [line] : wordsOfLine[index]!.length > 0 ? [wordsOfLine[index]!.join(' ')] : []))
    .join('\n');
}

function linesByToken(tokenLines: readonly number[], words: readonly PlacedWord[]): number[] {
  const own = words.map((word) =>
    word.token !== undefined && Number.isInteger(word.token) && word.token >= 0 && word.token < tokenLines.length ? tokenLines[word.token]! : null,
  );
  const firstKnown = own.find((line) => line !== null) ?? tokenLines[0]!;
  let previous = firstKnown;
  return own.map((line) => {
    previous = line ?? previous;
    return previous;
  });
}

function linesBySpelling(tokenLines: readonly number[], tokens: readonly string[], words: readonly Word[]): number[] {
  const placed: number[] = new Array<number>(words.length).fill(0);
  const anchors: [number, number][] = [
    [-1, -1],
    ...keyPairs(
      tokens,
      words.map((word) => word.text),
    ),
    [tokens.length, words.length],
  ];
  for (let a = 0; a + 1 < anchors.length; a += 1) {
    const [tokenFrom, wordFrom] = anchors[a]!;
    const [tokenTo, wordTo] = anchors[a + 1]!;
    if (wordTo < words.length) placed[wordTo] = tokenLines[tokenTo]!;
    const replaced = tokenLines.slice(tokenFrom + 1, tokenTo);
    const added = wordTo - wordFrom - 1;
    // Added words with nothing replaced join the line before them (the next one at the start).
    const home = tokenFrom >= 0 ? tokenLines[tokenFrom]! : tokenLines[Math.min(tokenTo, tokens.length - 1)]!;
    for (let offset = 0; offset < added; offset += 1) {
      placed[wordFrom + 1 + offset] = replaced.length > 0 ? replaced[Math.floor((offset * replaced.length) / added)]! : home;
    }
  }
  return placed;
}

export interface TimedTokens {
  /** One word per token of `current`: the sent word's times where one matched, else its own. */
  words: Word[];
  /** Sent words no token of the text matched. */
  unmatched: Word[];
}

/**
 * Timings sent for some of a text's tokens (`current`: one word per token, in text order)
 * put on the tokens they name: in order, each to a token of the same word (case and
 * punctuation aside), nearest in time when the word occurs more than once. The text keeps
 * its spelling; tokens no word was sent for keep their times.
 */
export function timeTokens(current: readonly Word[], sent: readonly Word[]): TimedTokens {
  const pairs =
    current.length * sent.length <= MATCH_MAX_CELLS
      ? nearestPairs(current, sent)
      : keyPairs(
          current.map((word) => word.text),
          sent.map((word) => word.text),
        );
  const words = current.map((word) => ({ ...word }));
  const matched = new Set<number>();
  for (const [token, index] of pairs) {
    words[token] = { text: current[token]!.text, start: sent[index]!.start, end: sent[index]!.end };
    matched.add(index);
  }
  return { words, unmatched: sent.filter((_, index) => !matched.has(index)) };
}

function sameWord(a: string, b: string): boolean {
  const key = alignmentKey(a);
  // Tokens of punctuation alone ("-", "&") match only themselves.
  return key === alignmentKey(b) && (key !== '' || a === b);
}

/** Pairs (token, word) of the same word, increasing in both: a longest common subsequence. */
function keyPairs(tokens: readonly string[], words: readonly string[]): [number, number][] {
  return alignKeys(tokens.map(alignmentKey), words.map(alignmentKey)).filter(([token, word]) => sameWord(tokens[token]!, words[word]!));
}

/** As `keyPairs`, and among the matchings of most pairs the one nearest in time. */
function nearestPairs(current: readonly Word[], sent: readonly Word[]): [number, number][] {
  const rows = current.length;
  const cols = sent.length;
  const width = cols + 1;
  const currentKeys = current.map((word) => alignmentKey(word.text));
  const sentKeys = sent.map((word) => alignmentKey(word.text));
  const same = (i: number, j: number) => currentKeys[i] === sentKeys[j] && (currentKeys[i] !== '' || current[i]!.text === sent[j]!.text);
  const worth = (i: number, j: number) => MATCH_WORTH - Math.abs(current[i]!.start - sent[j]!.start);
  // best[i][j]: the best score of current[i..] against sent[j..].
  const best = new Float64Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i -= 1) {
    for (let j = cols - 1; j >= 0; j -= 1) {
      const skip = Math.max(best[(i + 1) * width + j]!, best[i * width + j + 1]!);
      best[i * width + j] = same(i, j) ? Math.max(skip, best[(i + 1) * width + j + 1]! + worth(i, j)) : skip;
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (same(i, j) && best[i * width + j] === best[(i + 1) * width + j + 1]! + worth(i, j)) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (best[(i + 1) * width + j]! >= best[i * width + j + 1]!) i += 1;
    else j += 1;
  }
  return pairs;
}
