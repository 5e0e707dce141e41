import type { Word } from './words.contract.js';
import { alignKeys, alignmentKey, realignWords } from './lyrics-align.rules.js';
import { buildLinesFromWords } from './lyrics-lines.rules.js';
import { looksLikeLrc, parseLrc, writeElrc, writeLrc, type LrcMeta } from './lyrics-lrc.format.js';
import { looksLikeSrt, parseSrt, writeSrt } from './lyrics-srt.format.js';
import { effectiveDuration, fillLineTimes, isEmptyLine, isHeaderLine, round, splitLines, type LineTime, type LyricsLine } from './lyrics-timing.rules.js';

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

/**
 * SPEC 3's lines. Lyrics without any time are timed by SPEC 9's rule. Timed lyrics keep their
 * own times: a line starts at its own tag (or its first word, if that is earlier) and ends at
 * its own end (its last word's, its cue's, a closing tag's), else where the next timed line
 * starts, the last at the song's end. A line without a time in timed lyrics gets none: it
 * sits, lasting nothing, where the timed line before it ends, so the karaoke shows it in its
 * place and passes over it, and the exports know it as untimed (`ownLineTimes`).
 */
export function documentLines(document: LyricsDocument, durationSeconds: number | null | undefined): LyricsLine[] {
  const texts = splitLines(document.text);
  const times = ownLineTimes(document);
  if (!times.some((time) => time !== null)) return fillLineTimes(texts, times, durationSeconds);
  const total = Math.max(effectiveDuration(durationSeconds), ...times.map((time) => Math.max(time?.start ?? 0, time?.end ?? 0)));
  const nextStarts: number[] = new Array<number>(texts.length).fill(total);
  for (let i = texts.length - 2; i >= 0; i -= 1) nextStarts[i] = times[i + 1]?.start ?? nextStarts[i + 1]!;
  let previousEnd = times.find((time) => time !== null)!.start;
  return texts.map((text, index) => {
    const time = times[index];
    if (!time) return { text, startTime: round(previousEnd), endTime: round(previousEnd), isHeader: isHeaderLine(text) };
    const limit = Math.max(nextStarts[index]!, time.start);
    previousEnd = time.end === null ? limit : Math.min(Math.max(time.end, time.start), limit);
    return { text, startTime: round(time.start), endTime: round(previousEnd), isHeader: isHeaderLine(text) };
  });
}

/** Each line's own time (null where it has none): its line time, or its words'. */
export function ownLineTimes(document: LyricsDocument): (LineTime | null)[] {
  const texts = splitLines(document.text);
  const perLine = document.words && document.words.length > 0 ? wordsPerLine(document.text, document.words) : [];
  return texts.map((_, index) => {
    const own = document.lineTimes?.[index] ?? null;
    const lineWords = perLine[index] ?? [];
    if (lineWords.length === 0) return own;
    return { start: Math.min(own?.start ?? Infinity, lineWords[0]!.start), end: lineWords.at(-1)!.end };
  });
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
  return tokens.map((text, index) => ({
    text,
    start: word.start + step * index,
    end: index === tokens.length - 1 ? word.end : word.start + step * (index + 1),
  }));
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
  return line.split(/\s+/u).map(alignmentKey).join(' ').trim() || `\u0000${line.trim()}`;
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
    text: texts
      .slice(first, last)
      .map((line) => line.replace(/\s+$/u, ''))
      .join('\n'),
    lineTimes: document.lineTimes ? document.lineTimes.slice(first, last) : null,
    words: document.words,
  };
}

/**
 * The lyrics in a file format. Timed lyrics are written with their own times only: a line
 * without a time has no tag in LRC and no cue in SRT, and a last line that ends before the
 * song does gets a closing tag in LRC. Lyrics without any time get the rule's times (LRC needs
 * a time per line).
 */
export function exportLyrics(document: LyricsDocument, format: LyricsFormat, durationSeconds: number | null | undefined, meta: LrcMeta = {}): string {
  if (format === 'txt') return document.text === '' ? '' : `${document.text}\n`;
  const lines = documentLines(document, durationSeconds);
  const own = ownLineTimes(document);
  const timed = own.some((time) => time !== null);
  const untimed = (index: number) => timed && own[index] === null;
  if (format === 'srt') return writeSrt(lines.filter((_, index) => !untimed(index)));
  const written = lines.map((line, index) => (untimed(index) ? { ...line, startTime: null, endTime: null } : line));
  const lastTimed = own.findLastIndex((time) => time !== null);
  const end = timed && own[lastTimed]!.end !== null && lines[lastTimed]!.endTime < effectiveDuration(durationSeconds) ? lines[lastTimed]!.endTime : null;
  if (format === 'lrc') return writeLrc(written, meta, end);
  const perLine = document.words ? wordsPerLine(document.text, document.words) : [];
  const words = written.map((line, index) => ({ ...line, words: perLine[index] ?? [] }));
  // A last line sung word by word says its end with its closing word tag.
  return writeElrc(words, meta, (perLine[lastTimed]?.length ?? 0) > 0 ? null : end);
}
