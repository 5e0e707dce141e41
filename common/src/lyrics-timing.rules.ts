/**
 * SPEC 9's lyrics timing rule, and the line model both sides derive from stored lyrics.
 *
 * The rule (for lines that carry no timing of their own): an unknown duration is taken as
 * 240 s; 20 % of the time goes to the gaps of section headers and the rest is split evenly
 * over the non-empty lines; a header gets half a line's time; an empty line lasts 0.1 s; the
 * last line extends to the end. A line with square brackets is a section header.
 */

export const LYRICS_DEFAULT_DURATION_SECONDS = 240;
export const LYRICS_HEADER_SHARE = 0.2;
export const LYRICS_HEADER_LINE_FACTOR = 0.5;
export const LYRICS_EMPTY_LINE_SECONDS = 0.1;

/** SPEC 3's Lyrics line, in seconds. */
export interface LyricsLine {
  text: string;
  startTime: number;
  endTime: number;
  isHeader: boolean;
}

/** A line's own timing when its source had one (LRC, SRT, the words): end may be unknown. */
export interface LineTime {
  start: number;
  end: number | null;
}

/** SPEC 9: a line with square brackets ("[Chorus]", "[Verse 2]") is a section header. */
export function isHeaderLine(text: string): boolean {
  return /\[[^\]]*\]/.test(text);
}

export function isEmptyLine(text: string): boolean {
  return text.trim() === '';
}

/** Splits lyrics text into lines (any line ending), keeping empty lines. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** The duration the rule works with: the song's when known and positive, else 240 s. */
export function effectiveDuration(durationSeconds: number | null | undefined): number {
  return durationSeconds !== null && durationSeconds !== undefined && Number.isFinite(durationSeconds) && durationSeconds > 0
    ? durationSeconds
    : LYRICS_DEFAULT_DURATION_SECONDS;
}

/** SPEC 9 over the whole song: every line timed by the rule alone. */
export function timeLinesByRule(texts: readonly string[], durationSeconds: number | null | undefined): LyricsLine[] {
  return fillLineTimes(
    texts,
    texts.map(() => null),
    durationSeconds,
  );
}

/**
 * The lines of SPEC 3 from texts and the timings some of them have (same length, null where a
 * line has none). Timed lines keep their start; a timed line without an end ends where the
 * next line starts. Each run of untimed lines shares the stretch between its neighbours by
 * the rule's weights (the whole song when nothing is timed); the last line ends at the end.
 */
export function fillLineTimes(texts: readonly string[], times: readonly (LineTime | null)[], durationSeconds: number | null | undefined): LyricsLine[] {
  const total = Math.max(effectiveDuration(durationSeconds), lastKnownTime(times));
  const starts: number[] = new Array<number>(texts.length).fill(0);
  const ends: number[] = new Array<number>(texts.length).fill(0);
  const shared = new Set<number>();
  let index = 0;
  while (index < texts.length) {
    const time = times[index];
    if (time) {
      starts[index] = time.start;
      index += 1;
      continue;
    }
    // A run of untimed lines [index, runEnd): it fills the time between its neighbours.
    let runEnd = index;
    while (runEnd < texts.length && !times[runEnd]) runEnd += 1;
    const previous = index > 0 ? times[index - 1] : null;
    // A timed line without an end shares the stretch with the run after it.
    const first = previous && previous.end === null ? index - 1 : index;
    const from = previous ? Math.max(previous.end ?? previous.start, previous.start) : 0;
    const nextTime = runEnd < texts.length ? times[runEnd] : null;
    const to = nextTime ? nextTime.start : total;
    const slots = distribute(texts.slice(first, runEnd), Math.min(from, to), Math.max(from, to));
    slots.forEach((slot, offset) => {
      starts[first + offset] = slot.start;
      ends[first + offset] = slot.end;
      if (first + offset < index) shared.add(first + offset);
    });
    index = runEnd;
  }
  for (let i = 0; i < texts.length; i += 1) {
    const time = times[i];
    if (!time || shared.has(i)) continue;
    const nextStart = i + 1 < texts.length ? starts[i + 1]! : total;
    const ownEnd = time.end ?? nextStart;
    ends[i] = Math.max(time.start, i + 1 < texts.length ? Math.min(ownEnd, Math.max(nextStart, time.start)) : ownEnd);
  }
  if (texts.length > 0) ends[texts.length - 1] = Math.max(total, starts[texts.length - 1]!);
  return texts.map((text, i) => ({ text, startTime: round(starts[i]!), endTime: round(ends[i]!), isHeader: isHeaderLine(text) }));
}

/**
 * The rule's share of `[from, to]` for each line: content lines one part each, headers half a
 * part, and together the headers take 20 % when there are content lines beside them; empty
 * lines take 0.1 s (less when the stretch is too short for them).
 */
function distribute(texts: readonly string[], from: number, to: number): { start: number; end: number }[] {
  const span = Math.max(0, to - from);
  const kinds = texts.map((text) => (isEmptyLine(text) ? 'empty' : isHeaderLine(text) ? 'header' : 'content'));
  const emptyCount = kinds.filter((kind) => kind === 'empty').length;
  const headerCount = kinds.filter((kind) => kind === 'header').length;
  const contentCount = kinds.filter((kind) => kind === 'content').length;
  const emptySeconds = Math.min(LYRICS_EMPTY_LINE_SECONDS, emptyCount > 0 ? span / (emptyCount * 2) : 0);
  const rest = Math.max(0, span - emptySeconds * emptyCount);
  let lineSeconds: number;
  let headerSeconds: number;
  if (contentCount === 0) {
    lineSeconds = 0;
    headerSeconds = headerCount > 0 ? rest / headerCount : 0;
  } else {
    const contentShare = headerCount > 0 ? 1 - LYRICS_HEADER_SHARE : 1;
    lineSeconds = (rest * contentShare) / contentCount;
    headerSeconds = lineSeconds * LYRICS_HEADER_LINE_FACTOR;
    // Many headers beside few lines would overrun the stretch: scale everything to fit.
    const used = lineSeconds * contentCount + headerSeconds * headerCount;
    if (used > rest && used > 0) {
      lineSeconds *= rest / used;
      headerSeconds *= rest / used;
    }
  }
  let cursor = from;
  return kinds.map((kind) => {
    const length = kind === 'empty' ? emptySeconds : kind === 'header' ? headerSeconds : lineSeconds;
    const slot = { start: cursor, end: Math.min(to, cursor + length) };
    cursor = slot.end;
    return slot;
  });
}

function lastKnownTime(times: readonly (LineTime | null)[]): number {
  let last = 0;
  for (const time of times) if (time) last = Math.max(last, time.start, time.end ?? 0);
  return last;
}

/** The line playing at `seconds` (the last line started by then), or -1 before the first. */
export function currentLineIndex(lines: readonly LyricsLine[], seconds: number): number {
  let found = -1;
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i]!.startTime <= seconds) found = i;
    else break;
  }
  return found;
}

/** Milliseconds precision keeps JSON short and round trips through LRC's hundredths exact. */
export function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
