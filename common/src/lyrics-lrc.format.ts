import type { Word } from './words.contract.js';
import { isHeaderLine, round, type LineTime } from './lyrics-timing.rules.js';

/**
 * LRC and enhanced LRC (ELRC, word times as `<mm:ss.xx>`), read and written.
 *
 * Reading is forgiving, as files in the wild are: several time tags on one line repeat it at
 * each time; metadata tags (`[ar:...]`, `[offset:...]`) are read, not shown; a bracket that
 * is not a valid time (`[Chorus]`, `[1:75.00]`, `[ab:cd]`) is text; lines out of order are
 * sorted; word times that go backwards or leave their line are clamped into order.
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

const TIME_TAG = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/y;
const WORD_TAG = /<(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?>/g;
const META_TAG = /^\[(ti|ar|al|au|by|offset|length|la|lang|language|re|ve|#)\s*:(.*)\]\s*$/i;
const LRC_LINE = /^\s*\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\]/m;

/** True when the text has at least one LRC time tag at a line's start. */
export function looksLikeLrc(text: string): boolean {
  return LRC_LINE.test(text);
}

export function parseLrc(source: string): ParsedLyrics {
  const meta: LrcMeta = {};
  let offsetSeconds = 0;
  type Entry = { text: string; start: number | null; order: number; words: { text: string; start: number; end: number | null }[] | null; end: number | null };
  const entries: Entry[] = [];
  let order = 0;
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\s+$/, '');
    const metaMatch = META_TAG.exec(line.trim());
    if (metaMatch) {
      const key = metaMatch[1]!.toLowerCase();
      const value = metaMatch[2]!.trim();
      if (key === 'offset') {
        const ms = Number(value);
        if (Number.isFinite(ms)) offsetSeconds = ms / 1000;
      } else if (key === 'ti' && value) meta.title = value;
      else if (key === 'ar' && value) meta.artist = value;
      else if (key === 'al' && value) meta.album = value;
      else if ((key === 'la' || key === 'lang' || key === 'language') && value) meta.language = value;
      else if (key === 'length') {
        const seconds = parseClock(value);
        if (seconds !== null) meta.lengthSeconds = seconds;
      }
      continue;
    }
    const starts: number[] = [];
    let rest = line.trimStart();
    let position = 0;
    TIME_TAG.lastIndex = 0;
    for (let match = TIME_TAG.exec(rest); match; match = TIME_TAG.exec(rest)) {
      const seconds = tagSeconds(match[1]!, match[2]!, match[3]);
      if (seconds === null) break;
      starts.push(seconds);
      position = TIME_TAG.lastIndex;
    }
    rest = rest.slice(position);
    const { text, words, trailingEnd } = readWordTags(rest);
    const lineText = text.trim();
    if (starts.length === 0) {
      // A line without a time: kept as text (a header, a blank between stanzas) in file order.
      if (lineText === '' && entries.length === 0) continue;
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
    if (start !== null && end !== null && (end < start || (limit !== null && end > limit))) end = limit !== null ? Math.max(start, Math.min(end, limit)) : start;
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

function sortByTime<T extends { start: number | null; order: number }>(entries: T[]): T[] {
  // Each untimed line sorts with the timed line before it (its anchor), just after it.
  let anchor = -1;
  const keyed = entries.map((entry) => {
    if (entry.start !== null) anchor = entry.start;
    return { entry, key: entry.start ?? anchor, timed: entry.start !== null };
  });
  return keyed
    .sort((a, b) => a.key - b.key || Number(b.timed) - Number(a.timed) || a.entry.order - b.entry.order)
    .map(({ entry }) => entry);
}

/** Word tags of one line: `<t>word <t>word <t>`, the trailing tag being the last word's end. */
function readWordTags(rest: string): { text: string; words: { text: string; start: number; end: number | null }[] | null; trailingEnd: number | null } {
  WORD_TAG.lastIndex = 0;
  if (!WORD_TAG.test(rest)) return { text: rest, words: null, trailingEnd: null };
  const parts = rest.split(/(<\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?>)/);
  const words: { text: string; start: number; end: number | null }[] = [];
  let currentTime: number | null = null;
  let trailingEnd: number | null = null;
  const textParts: string[] = [];
  for (const part of parts) {
    const tag = /^<(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?>$/.exec(part);
    if (tag) {
      const seconds = tagSeconds(tag[1]!, tag[2]!, tag[3]);
      if (seconds === null) continue;
      const last = words.at(-1);
      if (last && last.end === null) last.end = seconds;
      currentTime = seconds;
      trailingEnd = seconds;
      continue;
    }
    textParts.push(part);
    for (const token of part.split(/\s+/).filter(Boolean)) {
      // Words before the first tag start with the line; two words under one tag share it.
      words.push({ text: token, start: currentTime ?? 0, end: null });
      trailingEnd = null;
    }
  }
  return { text: textParts.join('').replace(/\s+/g, ' '), words, trailingEnd };
}

function clampWords(words: { text: string; start: number; end: number | null }[], offset: number, lineStart: number, lineEnd: number | null): Word[] {
  const result: Word[] = [];
  let floor = lineStart;
  words.forEach((word, index) => {
    let start = Math.max(floor, word.start - offset);
    if (lineEnd !== null && lineEnd >= floor) start = Math.min(start, lineEnd);
    const nextStart = words[index + 1] ? words[index + 1]!.start - offset : null;
    let end = word.end !== null ? word.end - offset : nextStart ?? lineEnd ?? start + 0.5;
    if (lineEnd !== null && lineEnd >= start) end = Math.min(end, lineEnd);
    end = Math.max(start, end);
    result.push({ text: word.text, start: round(start), end: round(end) });
    floor = start;
  });
  return result;
}

function tagSeconds(minutes: string, seconds: string, fraction: string | undefined): number | null {
  const m = Number(minutes);
  const s = Number(seconds);
  if (s >= 60) return null;
  const f = fraction === undefined ? 0 : Number(fraction) / 10 ** fraction.length;
  return m * 60 + s + f;
}

function parseClock(value: string): number | null {
  const match = /^(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?$/.exec(value.trim());
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
  startTime: number;
  endTime: number;
  /** The line's words (ELRC); absent or empty writes the line as plain LRC. */
  words?: readonly Word[];
}

/** LRC: `[mm:ss.xx]text` per line; the metadata first. */
export function writeLrc(lines: readonly TimedLine[], meta: LrcMeta = {}): string {
  return [...metaLines(meta), ...lines.map((line) => `[${formatLrcTime(line.startTime)}]${line.text}`)].join('\n') + '\n';
}

/** Enhanced LRC: each word after its `<mm:ss.xx>`, the last word's end as a closing tag. */
export function writeElrc(lines: readonly TimedLine[], meta: LrcMeta = {}): string {
  const body = lines.map((line) => {
    if (!line.words || line.words.length === 0) return `[${formatLrcTime(line.startTime)}]${line.text}`;
    const words = line.words.map((word) => `<${formatLrcTime(word.start)}>${word.text}`).join(' ');
    return `[${formatLrcTime(line.startTime)}]${words} <${formatLrcTime(line.words.at(-1)!.end)}>`;
  });
  return [...metaLines(meta), ...body].join('\n') + '\n';
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
