import type { Word } from './words.contract.js';
import { isHeaderLine, round, type LineTime } from './lyrics-timing.rules.js';

/**
 * LRC and enhanced LRC (ELRC, word times as `<mm:ss.xx>`), read and written.
 *
 * Reading is forgiving, as files in the wild are: several time tags on one line repeat it at
 * each time; time tags inside a line (`<mm:ss.xx>`, or `[mm:ss.xx]` as foobar2000 writes
 * them) are word times; a whole line `[key:value]` is metadata (`[ar:...]`, `[offset:...]`
 * are read, others such as `[id:...]` skipped), unless the key names a section
 * (`[Chorus: Nova]`); a time tag with an impossible time (`[02:83.37]`, `[00:-03.00]`) is
 * ignored, its text kept without a time; any other bracket (`[Chorus]`, `[ab:cd]text`) is
 * text; lines out of order are sorted; word times that go backwards or leave their line are
 * clamped into order; a blank timed line after the last one is where that line ends.
 */

export interface ParsedLyrics {
  /** One entry per line, in time order; `time` null for a line without a time tag. */
  lines: { text: string; time: LineTime | null }[];
  /** Word times when the file had them for every sung word (ELRC), else null. */
  words: Word[] | null;
  meta: LrcMeta;
}

export interface LrcMeta {
  title?: string;
  artist?: string;
  album?: string;
  language?: string;
  lengthSeconds?: number;
}

/** Anything shaped like a time tag, valid or not: `[mm:ss]`, `[mm:ss.xx]`, `[mm:ss.xxx]`. */
const TIME_SHAPE = String.raw`([+-]?\d{1,3}):([+-]?\d{1,2})(?:[.:](\d+))?`;
const TIME_TAG = new RegExp(String.raw`\s*\[${TIME_SHAPE}\]`, 'y');
/** A time tag inside a line: `<mm:ss.xx>` (ELRC) or `[mm:ss.xx]` (foobar2000). */
const WORD_TAG = new RegExp(String.raw`(<${TIME_SHAPE}>|\[${TIME_SHAPE}\])`);
/** A whole line `[key:value]`; the value may hold brackets one deep (`[ti:Song [Live]]`). */
const META_TAG = /^\[([A-Za-z#][\w#-]*)\s*:((?:[^[\]]|\[[^[\]]*\])*)\]$/;
/** `[Chorus: Nova]` names who sings a section (Genius style): a header, not metadata. */
const SECTION_NAMES = new Set([
  'intro',
  'verse',
  'prechorus',
  'pre-chorus',
  'chorus',
  'postchorus',
  'post-chorus',
  'hook',
  'refrain',
  'bridge',
  'interlude',
  'breakdown',
  'instrumental',
  'solo',
  'break',
  'drop',
  'outro',
  'coda',
  'skit',
  'part',
]);
const LRC_LINE = /^\s*\[\d{1,3}:\d{1,2}(?:[.:]\d+)?\]/m;

/** True when the text has at least one LRC time tag at a line's start. */
export function looksLikeLrc(text: string): boolean {
  return LRC_LINE.test(text);
}

type RawWord = { text: string; start: number; end: number | null };

export function parseLrc(source: string): ParsedLyrics {
  const meta: LrcMeta = {};
  let offsetSeconds = 0;
  type Entry = { text: string; start: number | null; order: number; words: RawWord[] | null; end: number | null };
  const entries: Entry[] = [];
  let order = 0;
  for (const raw of source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')) {
    const line = raw.trim();
    const metaMatch = META_TAG.exec(line);
    if (metaMatch && !SECTION_NAMES.has(metaMatch[1]!.toLowerCase())) {
      const key = metaMatch[1]!.toLowerCase();
      const value = metaMatch[2]!.trim();
      if (key === 'offset') {
        const ms = Number(value);
        if (value !== '' && Number.isFinite(ms)) offsetSeconds = ms / 1000;
      } else readMeta(meta, key, value);
      continue;
    }
    const starts: number[] = [];
    let position = 0;
    TIME_TAG.lastIndex = 0;
    for (let match = TIME_TAG.exec(line); match; match = TIME_TAG.exec(line)) {
      const seconds = tagSeconds(match[1]!, match[2]!, match[3]);
      // An impossible time is no time: the tag goes, the text stays (untimed if no tag is left).
      if (seconds !== null) starts.push(seconds);
      position = TIME_TAG.lastIndex;
    }
    const { text, words, trailingEnd } = readWordTags(line.slice(position));
    const lineText = text.trim();
    if (starts.length === 0) {
      // A line without a time: kept as text (a header, a blank between stanzas) in file order;
      // nothing is left of a line that held only impossible times.
      if (lineText === '' && (entries.length === 0 || position > 0)) continue;
      entries.push({ text: lineText, start: null, order: order++, words: null, end: null });
      continue;
    }
    for (const start of starts) {
      const shift = start - (starts[0] ?? start);
      entries.push({
        text: lineText,
        start,
        order: order++,
        words: words ? words.map((word) => ({ text: word.text, start: word.start + shift, end: word.end === null ? null : word.end + shift })) : null,
        end: trailingEnd === null ? null : trailingEnd + shift,
      });
    }
  }
  // Drop trailing untimed blank lines; sort the timed ones, keeping untimed lines after the
  // timed line they followed in the file.
  while (entries.length > 0 && entries.at(-1)!.start === null && entries.at(-1)!.text === '') entries.pop();
  const sorted = sortByTime(entries);
  endAtTrailingBlank(sorted);
  const lines: ParsedLyrics['lines'] = [];
  const allWords: Word[] = [];
  let everyLineHasWords = true;
  let anyWords = false;
  // The start of the next timed line after each line, found in one pass from the end.
  const nextStarts: (number | null)[] = new Array<number | null>(sorted.length).fill(null);
  for (let i = sorted.length - 2; i >= 0; i -= 1) nextStarts[i] = sorted[i + 1]!.start ?? nextStarts[i + 1]!;
  sorted.forEach((entry, index) => {
    const start = entry.start === null ? null : Math.max(0, entry.start - offsetSeconds);
    let end = entry.end === null ? null : Math.max(0, entry.end - offsetSeconds);
    const nextStart = nextStarts[index];
    const limit = nextStart === undefined || nextStart === null ? null : Math.max(0, nextStart - offsetSeconds);
    if (start !== null && end !== null && (end < start || (limit !== null && end > limit)))
      end = limit !== null ? Math.max(start, Math.min(end, limit)) : start;
    lines.push({ text: entry.text, time: start === null ? null : { start: round(start), end: end === null ? null : round(end) } });
    const sung = entry.text.trim() !== '' && !isHeaderLine(entry.text);
    if (!sung) return;
    if (!entry.words || entry.words.length === 0 || start === null) {
      everyLineHasWords = false;
      return;
    }
    anyWords = true;
    allWords.push(...clampWords(entry.words, offsetSeconds, start, end ?? limit));
  });
  return { lines, words: anyWords && everyLineHasWords ? allWords : null, meta };
}

function readMeta(meta: LrcMeta, key: string, value: string): void {
  if (!value) return;
  if (key === 'ti') meta.title = value;
  else if (key === 'ar') meta.artist = value;
  else if (key === 'al') meta.album = value;
  else if (key === 'la' || key === 'lang' || key === 'language') meta.language = value;
  else if (key === 'length') {
    const seconds = parseClock(value);
    if (seconds !== null) meta.lengthSeconds = seconds;
  }
}

/**
 * Blank lines after the last words are not lyrics; the first of them with a time is where the
 * last timed line ends (LRC has no other way to say when the singing stops).
 */
function endAtTrailingBlank(sorted: { text: string; start: number | null; end: number | null }[]): void {
  let closing: number | null = null;
  while (sorted.length > 0 && sorted.at(-1)!.text === '') {
    const blank = sorted.pop()!;
    if (blank.start !== null) closing = blank.start;
  }
  if (closing === null) return;
  for (let i = sorted.length - 1; i >= 0; i -= 1) {
    const entry = sorted[i]!;
    if (entry.start === null) continue;
    if (closing >= entry.start && (entry.end === null || entry.end > closing)) entry.end = closing;
    return;
  }
}

function sortByTime<T extends { start: number | null; order: number }>(entries: T[]): T[] {
  // Each untimed line sorts with the timed line before it (its anchor), just after it.
  let anchor = -1;
  const keyed = entries.map((entry) => {
    if (entry.start !== null) anchor = entry.start;
    return { entry, key: entry.start ?? anchor, timed: entry.start !== null };
  });
  return keyed.sort((a, b) => a.key - b.key || Number(b.timed) - Number(a.timed) || a.entry.order - b.entry.order).map(({ entry }) => entry);
}

/** Word tags of one line: `<t>word <t>word <t>`, the trailing tag being the last word's end. */
function readWordTags(rest: string): { text: string; words: RawWord[] | null; trailingEnd: number | null } {
  if (!WORD_TAG.test(rest)) return { text: rest, words: null, trailingEnd: null };
  const words: RawWord[] = [];
  let currentTime: number | null = null;
  let trailingEnd: number | null = null;
  const textParts: string[] = [];
  const readText = (part: string) => {
    textParts.push(part);
    for (const token of part.split(/\s+/).filter(Boolean)) {
      // Words before the first tag start with the line; two words under one tag share it.
      words.push({ text: token, start: currentTime ?? 0, end: null });
      trailingEnd = null;
    }
  };
  let cursor = 0;
  for (const match of rest.matchAll(new RegExp(WORD_TAG.source, 'g'))) {
    readText(rest.slice(cursor, match.index));
    cursor = match.index + match[0].length;
    const seconds = match[2] !== undefined ? tagSeconds(match[2], match[3]!, match[4]) : tagSeconds(match[5]!, match[6]!, match[7]);
    if (seconds === null) continue;
    const last = words.at(-1);
    if (last && last.end === null) last.end = seconds;
    currentTime = seconds;
    trailingEnd = seconds;
  }
  readText(rest.slice(cursor));
  // A time tag between two words separates them, as it does the words above (`Let it be[02:01.40]ADLIB`).
  return { text: textParts.join(' ').replace(/\s+/g, ' '), words, trailingEnd };
}

function clampWords(words: { text: string; start: number; end: number | null }[], offset: number, lineStart: number, lineEnd: number | null): Word[] {
  const result: Word[] = [];
  let floor = lineStart;
  words.forEach((word, index) => {
    let start = Math.max(floor, word.start - offset);
    if (lineEnd !== null && lineEnd >= floor) start = Math.min(start, lineEnd);
    const nextStart = words[index + 1] ? words[index + 1]!.start - offset : null;
    let end = word.end !== null ? word.end - offset : (nextStart ?? lineEnd ?? start + 0.5);
    if (lineEnd !== null && lineEnd >= start) end = Math.min(end, lineEnd);
    end = Math.max(start, end);
    result.push({ text: word.text, start: round(start), end: round(end) });
    floor = start;
  });
  return result;
}

function tagSeconds(minutes: string, seconds: string, fraction: string | undefined): number | null {
  if (minutes.startsWith('-') || seconds.startsWith('-')) return null;
  const m = Number(minutes);
  const s = Number(seconds);
  if (s >= 60) return null;
  const f = fraction === undefined ? 0 : Number(fraction) / 10 ** fraction.length;
  return m * 60 + s + f;
}

function parseClock(value: string): number | null {
  const match = new RegExp(`^${TIME_SHAPE}$`).exec(value.trim());
  return match ? tagSeconds(match[1]!, match[2]!, match[3]) : null;
}

/** `mm:ss.xx` (hundredths), as LRC writes times. */
export function formatLrcTime(seconds: number): string {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  const minutes = Math.floor(hundredths / 6000);
  const rest = hundredths - minutes * 6000;
  return `${String(minutes).padStart(2, '0')}:${String(Math.floor(rest / 100)).padStart(2, '0')}.${String(rest % 100).padStart(2, '0')}`;
}

export interface TimedLine {
  text: string;
  /** Null for a line without a time: written as it is, with no tag, as LRC readers take it. */
  startTime: number | null;
  endTime: number | null;
  /** The line's words (ELRC); absent or empty writes the line as plain LRC. */
  words?: readonly Word[];
}

/**
 * LRC: `[mm:ss.xx]text` per line; the metadata first. `end`, when the last line ends before
 * the song does, is written as a blank timed line after it (read back as that line's end).
 */
export function writeLrc(lines: readonly TimedLine[], meta: LrcMeta = {}, end: number | null = null): string {
  const body = lines.map((line) => timedText(line.startTime, line.text));
  return [...metaLines(meta), ...body, ...closingLine(end)].join('\n') + '\n';
}

/** Enhanced LRC: each word after its `<mm:ss.xx>`, the last word's end as a closing tag. */
export function writeElrc(lines: readonly TimedLine[], meta: LrcMeta = {}, end: number | null = null): string {
  const body = lines.map((line) => {
    if (!line.words || line.words.length === 0 || line.startTime === null) return timedText(line.startTime, line.text);
    const words = line.words.map((word) => `<${formatLrcTime(word.start)}>${word.text}`).join(' ');
    return `[${formatLrcTime(line.startTime)}]${words} <${formatLrcTime(line.words.at(-1)!.end)}>`;
  });
  return [...metaLines(meta), ...body, ...closingLine(end)].join('\n') + '\n';
}

function timedText(start: number | null, text: string): string {
  return start === null ? text : `[${formatLrcTime(start)}]${text}`;
}

function closingLine(end: number | null): string[] {
  return end === null ? [] : [`[${formatLrcTime(end)}]`];
}

function metaLines(meta: LrcMeta): string[] {
  const clean = (value: string) => value.replace(/[\r\n\]]/g, ' ').trim();
  const lines: string[] = [];
  if (meta.title) lines.push(`[ti:${clean(meta.title)}]`);
  if (meta.artist) lines.push(`[ar:${clean(meta.artist)}]`);
  if (meta.album) lines.push(`[al:${clean(meta.album)}]`);
  if (meta.language) lines.push(`[la:${clean(meta.language)}]`);
  if (meta.lengthSeconds) lines.push(`[length:${formatLrcTime(meta.lengthSeconds).slice(0, 5)}]`);
  return lines;
}
