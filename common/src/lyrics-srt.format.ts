import { round, type LineTime } from './lyrics-timing.rules.js';

/**
 * SubRip (SRT) subtitles as lyrics: each text line of a cue is a lyrics line; a cue with
 * several text lines shares its time evenly between them. Cues out of order are sorted; a cue
 * whose times are broken (end before start, bad numbers) is skipped as a whole.
 */

const TIMING = /^\s*(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})\s*-->\s*(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})/;

export function looksLikeSrt(text: string): boolean {
  return /^\s*\d+\s*\n\s*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}\s*-->/m.test(text.replace(/\r\n?/g, '\n'));
}

export function parseSrt(source: string): { text: string; time: LineTime | null }[] {
  const cues: { start: number; end: number; texts: string[] }[] = [];
  const blocks = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/);
  for (const block of blocks) {
    const rows = block.split('\n').filter((row) => row.trim() !== '');
    const timingIndex = rows.findIndex((row) => TIMING.test(row));
    if (timingIndex < 0) continue;
    const match = TIMING.exec(rows[timingIndex]!)!;
    const start = clock(match[1]!, match[2]!, match[3]!, match[4]!);
    const end = clock(match[5]!, match[6]!, match[7]!, match[8]!);
    if (start === null || end === null || end < start) continue;
    const texts = rows
      .slice(timingIndex + 1)
      .map((row) => stripMarkup(row).trim())
      .filter(Boolean);
    if (texts.length > 0) cues.push({ start, end, texts });
  }
  cues.sort((a, b) => a.start - b.start);
  return cues.flatMap((cue) => {
    const share = (cue.end - cue.start) / cue.texts.length;
    return cue.texts.map((text, index) => ({ text, time: { start: round(cue.start + share * index), end: round(cue.start + share * (index + 1)) } }));
  });
}

/** `hh:mm:ss,mmm`. */
export function formatSrtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const secs = Math.floor((ms % 60_000) / 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)},${pad(ms % 1000, 3)}`;
}

/** One cue per line with text; headers and blank lines are not sung, so not subtitled. */
export function writeSrt(lines: readonly { text: string; startTime: number; endTime: number; isHeader: boolean }[]): string {
  const cues = lines.filter((line) => line.text.trim() !== '' && !line.isHeader);
  return cues
    .map((line, index) => `${index + 1}\n${formatSrtTime(line.startTime)} --> ${formatSrtTime(Math.max(line.endTime, line.startTime))}\n${line.text}\n`)
    .join('\n');
}

function clock(hours: string, minutes: string, seconds: string, fraction: string): number | null {
  const m = Number(minutes);
  const s = Number(seconds);
  if (m >= 60 || s >= 60) return null;
  return Number(hours) * 3600 + m * 60 + s + Number(fraction) / 10 ** fraction.length;
}

function stripMarkup(row: string): string {
  return row.replace(/<\/?[a-z][^>]*>/gi, '').replace(/\{\\[^}]*\}/g, '');
}
