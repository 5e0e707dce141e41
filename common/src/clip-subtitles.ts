import { CLIP_FONT_FACES, clipFontFace } from './clip-fonts.js';
import type { ClipWord } from './clip-text.js';
import type { TextStyle } from './text-style.contract.js';
import type { Word } from './words.contract.js';

/**
 * The clip's text as one ASS document (libass draws it in the renderer and in the browser
 * preview, so both look the same). Pure: words + text style + frame → text.
 *
 * Layout: words are grouped into lines (a pause, a sentence end or the width closes a line)
 * and lines into screens of at most two; every line is its own event placed with `\pos`, so
 * line height, padding, alignment and position are exact, and nothing is left to wrapping
 * (WrapStyle 2). A shown background is a layer-0 copy of each line with BorderStyle 3 (a box
 * `padding` wider than the text, its edges softened by `\blur` as the corner radius: libass
 * draws no rounded boxes); the text is layer 1. Words with timings are karaoke: `\k` makes a
 * word the highlight colour from its start. Words that only share their lyrics line's time
 * (`karaoke: false`) are drawn plain, and each lyrics line (`lineStart`) opens a screen. Sizes
 * are given for a 360-pixel short side and scaled to the frame.
 */

export interface ClipSubtitleInput {
  words: readonly ClipWord[];
  /** False when the words' times are their line's share, not their own: no word-by-word highlight. Default: true when any word is timed. */
  karaoke?: boolean;
  style: TextStyle;
  width: number;
  height: number;
  /** The part of the song the clip shows, in song seconds; subtitle times are relative to `start`. */
  start: number;
  end: number;
  /** The colour of the current (sung) word. */
  highlightColor?: string;
  /** colorMatch: the text colour to use from a clip time on (sorted by `from`), instead of `style.textColor`. */
  textColors?: readonly TextColorStretch[];
}

/** colorMatch's text colour from clip second `from` on. */
export interface TextColorStretch {
  from: number;
  color: string;
}

export const SUBTITLE_REFERENCE_SHORT_SIDE = 360;
export const DEFAULT_HIGHLIGHT_COLOR = '#ffd54f';
/** A pause longer than this between two words starts a new screen. */
const SCREEN_PAUSE_SECONDS = 1.5;
const LINES_PER_SCREEN = 2;
const LEAD_IN_SECONDS = 0.25;
const HOLD_SECONDS = 1;
const ANIMATION_MS = 300;
/** Left, right, top and bottom margins as a share of the frame. */
const MARGIN = 0.05;
/** An average glyph is this share of the font size wide (for line breaking only). */
const AVERAGE_GLYPH_WIDTH = 0.55;

interface Line {
  words: ClipWord[];
  text: string;
}

interface Screen {
  lines: Line[];
  start: number;
  end: number;
}

export function buildClipSubtitles(input: ClipSubtitleInput): string {
  const { style, width, height } = input;
  const scale = Math.min(width, height) / SUBTITLE_REFERENCE_SHORT_SIDE;
  const fontPx = style.fontSize * scale;
  const paddingPx = style.showBackground ? style.padding * scale : 0;
  const spacingPx = style.letterSpacing * scale;
  const usableWidth = width * (1 - 2 * MARGIN) - 2 * paddingPx;
  const maxChars = Math.max(8, Math.floor(usableWidth / (fontPx * AVERAGE_GLYPH_WIDTH + Math.max(0, spacingPx))));
  const words = timedWords(input);
  const karaokeOn = words.timed && input.karaoke !== false;
  const screens = screensOf(linesOf(words, maxChars), input.end - input.start);

  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    styleLine('Text', input, fontPx, spacingPx, { borderStyle: 1, outline: 0, shadow: style.textShadow ? round2(Math.max(1, 2 * scale)) : 0 }),
    styleLine('Box', input, fontPx, spacingPx, { borderStyle: 3, outline: round2(paddingPx), shadow: 0 }),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const lineHeightPx = fontPx * style.lineHeight;
  const events: string[] = [];
  for (const screen of screens) {
    const blockHeight = screen.lines.length * lineHeightPx;
    const top =
      style.textPosition === 'top'
        ? height * MARGIN + paddingPx
        : style.textPosition === 'bottom'
          ? height * (1 - MARGIN) - paddingPx - blockHeight
          : (height - blockHeight) / 2;
    screen.lines.forEach((line, index) => {
      const y = top + (index + 0.5) * lineHeightPx;
      const x = style.textAlign === 'left' ? width * MARGIN + paddingPx : style.textAlign === 'right' ? width * (1 - MARGIN) - paddingPx : width / 2;
      const face = clipFontFace(style.fontFamily, line.text);
      const common = `\\an${ALIGN_MIDDLE[style.textAlign]}\\fn${face}${animationTags(style.animation, x, y, screen.end - screen.start, fontPx)}`;
      if (style.showBackground) {
        const blur = style.borderRadius > 0 ? `\\blur${round2((style.borderRadius * scale) / 3)}` : '';
        // The boxes of two lines overlap by about twice the padding, and two half-transparent
        // boxes make a darker band: each line's box stops where the lines meet.
        const upper = index > 0 ? Math.round(top + index * lineHeightPx) : 0;
        const lower = index < screen.lines.length - 1 ? Math.round(top + (index + 1) * lineHeightPx) : height;
        const clip = screen.lines.length > 1 ? `\\clip(0,${upper},${width},${lower})` : '';
        events.push(dialogue(0, screen, 'Box', `{${common}${blur}${clip}}${escapeText(line.text)}`));
      }
      const text = karaokeOn ? karaoke(line, screen.start) : escapeText(line.text);
      events.push(dialogue(1, screen, 'Text', `{${common}${textColorTags(input, screen.start, karaokeOn)}}${text}`));
    });
  }
  return `${[...header, ...events].join('\n')}\n`;
}

const ALIGN_MIDDLE = { left: 4, center: 5, right: 6 } as const;

function styleLine(
  name: string,
  input: ClipSubtitleInput,
  fontPx: number,
  spacingPx: number,
  box: { borderStyle: 1 | 3; outline: number; shadow: number },
): string {
  const { style } = input;
  const text = assColor(style.textColor);
  const highlight = assColor(input.highlightColor ?? DEFAULT_HIGHLIGHT_COLOR);
  // SPEC 3: the background is the colour's RGB at the opacity slider's percent.
  const background = assColor(style.backgroundColor);
  const backgroundAlpha = hexByte(Math.round(255 * (1 - style.backgroundOpacity / 100)));
  const isBox = box.borderStyle === 3;
  // \k: a word is SecondaryColour until its time, PrimaryColour from then on.
  const primary = isBox ? '&HFF000000' : `&H${highlight.alpha}${highlight.bgr.slice(2, -1)}`;
  const secondary = isBox ? '&HFF000000' : `&H${text.alpha}${text.bgr.slice(2, -1)}`;
  const outline = isBox ? `&H${backgroundAlpha}${background.bgr.slice(2, -1)}` : '&H00000000';
  const back = '&H60000000';
  const flag = (on: boolean) => (on ? -1 : 0);
  // Encoding -1: libass finds each line's base direction from its text (Hebrew lines are RTL).
  const encoding = -1;
  return `Style: ${name},${CLIP_FONT_FACES[style.fontFamily]},${round2(fontPx)},${primary},${secondary},${outline},${back},${flag(style.textStyles.bold)},${flag(style.textStyles.italic)},${flag(style.textStyles.underline)},0,100,100,${round2(spacingPx)},0,${box.borderStyle},${box.outline},${box.shadow},5,0,0,0,${encoding}`;
}

function dialogue(layer: number, screen: Screen, styleName: string, text: string): string {
  return `Dialogue: ${layer},${assTime(screen.start)},${assTime(screen.end)},${styleName},,0,0,0,,${text}`;
}

function animationTags(animation: TextStyle['animation'], x: number, y: number, durationSeconds: number, fontPx: number): string {
  const pos = `\\pos(${round2(x)},${round2(y)})`;
  const total = Math.round(durationSeconds * 1000);
  const fade = Math.min(ANIMATION_MS, Math.floor(total / 3));
  switch (animation) {
    case 'fade':
      return `${pos}\\fad(${fade},${fade})`;
    case 'slide':
      return `\\move(${round2(x)},${round2(y + fontPx)},${round2(x)},${round2(y)},0,${fade})\\fad(${Math.floor(fade / 2)},${Math.floor(fade / 2)})`;
    case 'zoom':
      return `${pos}\\fscx70\\fscy70\\t(0,${fade},\\fscx100\\fscy100)\\fad(${Math.floor(fade / 2)},${Math.floor(fade / 2)})`;
    case 'bounce':
      return `\\move(${round2(x)},${round2(y - fontPx)},${round2(x)},${round2(y)},0,${fade})\\t(${fade},${fade + 80},\\fscx108\\fscy88)\\t(${fade + 80},${fade + 180},\\fscx100\\fscy100)`;
    case 'pulse': {
      // One beat a second, for as long as the screen shows (at most a minute of tags).
      const beats: string[] = [];
      for (let t = 0; t + 1000 <= total && beats.length < 60; t += 1000)
        beats.push(`\\t(${t},${t + 500},\\fscx106\\fscy106)\\t(${t + 500},${t + 1000},\\fscx100\\fscy100)`);
      return `${pos}${beats.join('')}`;
    }
    case 'none':
      return pos;
  }
}

/**
 * The text's colour where it is not the style's (colorMatch's colour for the screen). With
 * timings that is the colour before a word is sung (`\2c`: the style's primary colour is the
 * highlight); without, the line is plain, all of it in the text colour (`\1c`).
 */
function textColorTags(input: ClipSubtitleInput, screenStart: number, timed: boolean): string {
  const color = colorAt(input, screenStart);
  if (timed) return color ? `\\2c${assColor(color).bgr}\\2a&H${assColor(color).alpha}&` : '';
  const plain = assColor(color ?? input.style.textColor);
  return `\\1c${plain.bgr}\\1a&H${plain.alpha}&`;
}

/**
 * Karaoke: `{\kN}` gives the syllable after it N centiseconds, and a syllable turns the
 * highlight colour when its own time begins. An empty syllable covers the wait before the first
 * word; each word lasts until the next one starts (or its own end).
 */
function karaoke(line: Line, screenStart: number): string {
  let cursor = Math.round(screenStart * 100);
  const first = line.words[0];
  const parts: string[] = [];
  if (first) {
    const lead = Math.max(0, Math.round(first.start * 100) - cursor);
    parts.push(`{\\k${lead}}`);
    cursor += lead;
  }
  line.words.forEach((word, index) => {
    const next = line.words[index + 1];
    const until = Math.round((next ? next.start : word.end) * 100);
    const length = Math.max(0, until - cursor);
    parts.push(`{\\k${length}}${index > 0 ? ' ' : ''}${escapeText(word.text)}`);
    cursor += length;
  });
  return parts.join('');
}

/**
 * Text never opens an override block or an escape: a backslash is followed by a zero-width
 * space (so `\\N` prints as typed), braces are libass's escaped braces `\\{` `\\}`.
 */
export function escapeText(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\\/g, '\\\u200b')
    .replace(/([{}])/g, '\\$1');
}

function colorAt(input: ClipSubtitleInput, time: number): string | undefined {
  let color: string | undefined;
  for (const segment of input.textColors ?? []) if (segment.from <= time + 1e-6) color = segment.color;
  return color;
}

/** Words in clip time (relative to start, inside the clip); spread evenly when none has a timing. */
function timedWords(input: ClipSubtitleInput): ClipWord[] & { timed: boolean } {
  const duration = Math.max(0, input.end - input.start);
  const cleaned = input.words.filter((word) => word.text.trim() !== '');
  const timed = cleaned.some((word) => word.end > 0);
  let words: ClipWord[];
  if (timed) {
    words = cleaned
      .map((word) => ({ text: word.text.trim(), start: word.start - input.start, end: word.end - input.start, ...(word.lineStart ? { lineStart: true } : {}) }))
      .filter((word) => word.end > 0 && word.start < duration)
      .map((word) => ({ ...word, start: Math.max(0, word.start), end: Math.min(duration, word.end) }))
      .sort((a, b) => a.start - b.start);
  } else {
    const step = cleaned.length > 0 ? duration / cleaned.length : 0;
    words = cleaned.map((word, index) => ({ text: word.text.trim(), start: index * step, end: (index + 1) * step }));
  }
  return Object.assign(words, { timed });
}

function linesOf(words: ClipWord[] & { timed: boolean }, maxChars: number): { line: Line; pauseBefore: boolean }[] {
  const lines: { line: Line; pauseBefore: boolean }[] = [];
  let current: Line | undefined;
  let previous: Word | undefined;
  for (const word of words) {
    // A lyrics line opens its own screen, as a sung pause does.
    const pause = previous !== undefined && ((words.timed && word.start - previous.end > SCREEN_PAUSE_SECONDS) || word.lineStart === true);
    const sentenceEnd = previous !== undefined && /[.!?;:,،؛。]$/u.test(previous.text);
    if (!current || pause || sentenceEnd || current.text.length + 1 + word.text.length > maxChars) {
      current = { words: [], text: '' };
      lines.push({ line: current, pauseBefore: pause });
    }
    current.words.push(word);
    current.text = current.text ? `${current.text} ${word.text}` : word.text;
    previous = word;
  }
  return lines;
}

function screensOf(lines: { line: Line; pauseBefore: boolean }[], duration: number): Screen[] {
  const groups: Line[][] = [];
  for (const { line, pauseBefore } of lines) {
    const last = groups.at(-1);
    if (!last || pauseBefore || last.length >= LINES_PER_SCREEN) groups.push([line]);
    else last.push(line);
  }
  const screens: Screen[] = [];
  groups.forEach((group, index) => {
    const first = group[0]?.words[0]?.start ?? 0;
    const last = group.at(-1)?.words.at(-1)?.end ?? first;
    const next = groups[index + 1]?.[0]?.words[0]?.start;
    const previousEnd = screens.at(-1)?.end ?? 0;
    const start = Math.max(previousEnd, first - LEAD_IN_SECONDS, 0);
    const end = Math.min(duration, Math.max(start + 0.1, last + HOLD_SECONDS), next !== undefined ? Math.max(start + 0.1, next - LEAD_IN_SECONDS) : Infinity);
    if (end > start) screens.push({ lines: group, start, end });
  });
  return screens;
}

/** h:mm:ss.cc */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

/** A CSS colour as ASS `&HBBGGRR&` plus its alpha byte (00 opaque) and opacity 0-1. */
export function assColor(css: string): { bgr: string; alpha: string; opacity: number } {
  const { r, g, b, a } = parseCssColor(css);
  return { bgr: `&H${hexByte(b)}${hexByte(g)}${hexByte(r)}&`, alpha: hexByte(Math.round(255 * (1 - a))), opacity: a };
}

export function parseCssColor(css: string): { r: number; g: number; b: number; a: number } {
  const value = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
  }
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(value);
  if (rgb) {
    const channel = (text: string | undefined) => Math.min(255, Number(text));
    return { r: channel(rgb[1]), g: channel(rgb[2]), b: channel(rgb[3]), a: rgb[4] === undefined ? 1 : Math.min(1, Math.max(0, Number(rgb[4]))) };
  }
  return { r: 255, g: 255, b: 255, a: 1 };
}

function hexByte(value: number): string {
  return Math.min(255, Math.max(0, Math.round(value)))
    .toString(16)
    .toUpperCase()
    .padStart(2, '0');
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
