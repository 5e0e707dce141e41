import type { Word } from './words.contract.js';
import { alignKeys, alignmentKey, realignWords } from './lyrics-align.rules.js';
import { buildLinesFromWords } from './lyrics-lines.rules.js';
import { looksLikeLrc, parseLrc, writeElrc, writeLrc, type LrcMeta } from './lyrics-lrc.format.js';
import { looksLikeSrt, parseSrt, writeSrt } from './lyrics-srt.format.js';
import { fillLineTimes, isEmptyLine, isHeaderLine, splitLines, type LineTime, type LyricsLine } from './lyrics-timing.rules.js';

/**
 * The one lyrics model of a song as stored: its text, the timings of its lines where its
 * source had them, and the times of its sung words. Invariant: when `words` is set it holds
 * one word per sung token (whitespace-separated, in lines that are neither empty nor headers),
 * in order, so each line's words are found by counting.
 */
export interface LyricsDocument {
  text: string;
  /** One entry per line of `text` (null where the line has no time), or null for none. */
  lineTimes: (LineTime | null)[] | null;
  words: Word[] | null;
}

export type LyricsTiming = 'none' | 'line' | 'word';
export type LyricsFormat = 'lrc' | 'elrc' | 'srt' | 'txt';

/** Text as stored: one kind of line ending, no trailing spaces, no blank lines at the end. */
export function normaliseLyricsText(text: string): string {
  return splitLines(text.replace(/^\uFEFF/, ''))
    .map((line) => line.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/\n+$/, '')
    .replace(/^\n+/, '');
}

/** The sung tokens of each line ([] for headers and empty lines). */
export function lineTokens(text: string): string[][] {
  return splitLines(text).map((line) => (isEmptyLine(line) || isHeaderLine(line) ? [] : line.trim().split(/\s+/u)));
}

/** Each line's words, by counting tokens; lines past the words get none. */
export function wordsPerLine(text: string, words: readonly Word[]): Word[][] {
  let cursor = 0;
  return lineTokens(text).map((tokens) => {
    const slice = words.slice(cursor, cursor + tokens.length);
    cursor += tokens.length;
    return slice;
  });
}

export function timingOf(document: LyricsDocument | null): LyricsTiming {
  if (!document) return 'none';
  if (document.words && document.words.length > 0) return 'word';
  if (document.lineTimes?.some((time) => time !== null)) return 'line';
  return 'none';
}

/** SPEC 3's lines: from the words when timed by word, else from line times, else the rule. */
export function documentLines(document: LyricsDocument, durationSeconds: number | null | undefined): LyricsLine[] {
  const texts = splitLines(document.text);
  let times: (LineTime | null)[] = texts.map((_, index) => document.lineTimes?.[index] ?? null);
  if (document.words && document.words.length > 0) {
    const perLine = wordsPerLine(document.text, document.words);
    times = times.map((time, index) => {
      const lineWords = perLine[index]!;
      return lineWords.length > 0 ? { start: lineWords[0]!.start, end: lineWords.at(-1)!.end } : time;
    });
  }
  return fillLineTimes(texts, times, durationSeconds);
}

/** A document from timed words (a transcription, or words the editor saved). */
export function documentFromWords(words: readonly Word[]): LyricsDocument {
  // Square brackets would make a line a header (SPEC 9): "[Music]" is sung text "(Music)".
  const clean = words
    .flatMap((word) => splitWordTokens({ ...word, text: word.text.trim().replace(/\[/g, '(').replace(/\]/g, ')') }))
    .filter((word) => word.text !== '');
  const lines = buildLinesFromWords(clean);
  return { text: lines.map((line) => line.text).join('\n'), lineTimes: null, words: clean };
}

/** A word whose text has spaces becomes one word per token, sharing its time by length. */
function splitWordTokens(word: Word): Word[] {
  const tokens = word.text.split(/\s+/u).filter(Boolean);
  if (tokens.length <= 1) return [word];
  const step = (word.end - word.start) / tokens.length;
  return tokens.map((text, index) => ({ text, start: word.start + step * index, end: index === tokens.length - 1 ? word.end : word.start + step * (index + 1) }));
}

export interface ImportedLyrics {
  document: LyricsDocument;
  format: LyricsFormat;
  meta: LrcMeta;
}

/** Pasted or uploaded lyrics: LRC/ELRC by its time tags, SRT by its cues, else plain text. */
export function importLyrics(source: string): ImportedLyrics {
  if (looksLikeLrc(source)) {
    const parsed = parseLrc(source);
    const texts = parsed.lines.map((line) => line.text);
    const document = withWordsMatchingText({ text: texts.join('\n'), lineTimes: parsed.lines.map((line) => line.time), words: parsed.words });
    return { document: trimDocument(document), format: parsed.words ? 'elrc' : 'lrc', meta: parsed.meta };
  }
  if (looksLikeSrt(source)) {
    const lines = parseSrt(source);
    return { document: { text: lines.map((line) => line.text).join('\n'), lineTimes: lines.map((line) => line.time), words: null }, format: 'srt', meta: {} };
  }
  return { document: { text: normaliseLyricsText(source), lineTimes: null, words: null }, format: 'txt', meta: {} };
}

/**
 * The document after the user edits its text: lines found unchanged keep their times, words
 * found unchanged keep theirs, and only the changed stretch is re-timed.
 */
export function editDocument(previous: LyricsDocument | null, newText: string, durationSeconds?: number | null): LyricsDocument {
  const text = normaliseLyricsText(newText);
  if (!previous) return { text, lineTimes: null, words: null };
  const oldTexts = splitLines(previous.text);
  const newTexts = splitLines(text);
  let lineTimes: (LineTime | null)[] | null = null;
  if (previous.lineTimes?.some((time) => time !== null)) {
    lineTimes = newTexts.map(() => null);
    for (const [oldIndex, newIndex] of alignKeys(oldTexts.map(lineKey), newTexts.map(lineKey))) {
      lineTimes[newIndex] = previous.lineTimes[oldIndex] ?? null;
    }
  }
  let words: Word[] | null = null;
  if (previous.words && previous.words.length > 0) {
    const tokens = lineTokens(text).flat();
    words = tokens.length > 0 ? realignWords(previous.words, tokens, durationSeconds ?? undefined) : null;
  }
  return { text, lineTimes, words };
}

function lineKey(line: string): string {
  return line
    .split(/\s+/u)
    .map(alignmentKey)
    .join(' ')
    .trim() || `\u0000${line.trim()}`;
}

/** ELRC whose word tags do not cover its text exactly loses the words, not the lines. */
function withWordsMatchingText(document: LyricsDocument): LyricsDocument {
  if (!document.words) return document;
  const count = lineTokens(document.text).flat().length;
  return count === document.words.length ? document : { ...document, words: null };
}

function trimDocument(document: LyricsDocument): LyricsDocument {
  // Leading and trailing blank lines go, with their times.
  const texts = splitLines(document.text);
  let first = 0;
  let last = texts.length;
  while (first < last && isEmptyLine(texts[first]!)) first += 1;
  while (last > first && isEmptyLine(texts[last - 1]!)) last -= 1;
  return {
    text: texts.slice(first, last).map((line) => line.replace(/\s+$/u, '')).join('\n'),
    lineTimes: document.lineTimes ? document.lineTimes.slice(first, last) : null,
    words: document.words,
  };
}

/** The lyrics in a file format; untimed lines get the rule's times (LRC needs a time each). */
export function exportLyrics(document: LyricsDocument, format: LyricsFormat, durationSeconds: number | null | undefined, meta: LrcMeta = {}): string {
  if (format === 'txt') return document.text === '' ? '' : `${document.text}\n`;
  const lines = documentLines(document, durationSeconds);
  if (format === 'srt') return writeSrt(lines);
  if (format === 'lrc') return writeLrc(lines, meta);
  const perLine = document.words ? wordsPerLine(document.text, document.words) : [];
  return writeElrc(
    lines.map((line, index) => ({ ...line, words: perLine[index] ?? [] })),
    meta,
  );
}
