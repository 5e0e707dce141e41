import type { Transition } from '@encore/common/clips.contract';
import type { TextAnimation } from '@encore/common/text-style.contract';
import type { Word } from '@encore/common/words.contract';

/**
 * What the live preview shows at a time: which picture (and the next one, mid-transition), which
 * line of words with its current word, and how far its entrance animation has run. Pure, so
 * the canvas only draws what these functions say.
 */

export interface PictureFrame {
  index: number;
  /** The picture coming in, while a transition runs. */
  next: number | null;
  /** 0 → only `index`, 1 → only `next`. */
  mix: number;
}

/** How long a transition takes, in seconds (none is a cut). */
export const TRANSITION_SECONDS: Record<Transition, number> = { smooth: 1, sharp: 0.15, elastic: 0.8, none: 0 };

/** Pictures share the clip evenly; each hands over to the next in the last part of its slot. */
export function pictureAt(time: number, count: number, duration: number, transition: Transition): PictureFrame {
  if (count <= 1 || duration <= 0) return { index: 0, next: null, mix: 0 };
  const slot = duration / count;
  const clamped = Math.min(Math.max(time, 0), duration - 1e-6);
  const index = Math.min(count - 1, Math.floor(clamped / slot));
  const length = Math.min(TRANSITION_SECONDS[transition], slot / 2);
  const into = clamped - index * slot;
  if (index === count - 1 || length <= 0 || into < slot - length) return { index, next: null, mix: 0 };
  return { index, next: index + 1, mix: (into - (slot - length)) / length };
}

/** Elastic: overshoots and settles, as a spring does. */
export function elasticEase(x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return 1 - Math.pow(2, -10 * x) * Math.cos(x * Math.PI * 3);
}

export interface PreviewLine {
  words: Word[];
  start: number;
  end: number;
}

const LINE_PAUSE_SECONDS = 1.5;
const WORDS_PER_LINE = 7;
export const LINE_LEAD_IN_SECONDS = 0.25;
export const LINE_HOLD_SECONDS = 1;

/** Timed words into lines: a long pause, a sentence end or seven words close a line. */
export function linesOf(words: readonly Word[]): PreviewLine[] {
  const lines: PreviewLine[] = [];
  let current: Word[] = [];
  const close = () => {
    if (current.length) lines.push({ words: current, start: current[0]!.start, end: current[current.length - 1]!.end });
    current = [];
  };
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous && (word.start - previous.end > LINE_PAUSE_SECONDS || /[.!?]$/.test(previous.text) || current.length >= WORDS_PER_LINE)) close();
    current.push(word);
  }
  close();
  return lines;
}

export interface TextFrame {
  line: PreviewLine;
  /** The word being sung (karaoke highlight), or -1 between words. */
  current: number;
  /** Seconds since the line appeared. */
  age: number;
}

/** The line on screen at `time` (song seconds): from just before its first word until a moment after its last. */
export function textAt(lines: readonly PreviewLine[], time: number): TextFrame | null {
  const index = lines.findIndex((line, i) => {
    const nextStart = lines[i + 1]?.start ?? Infinity;
    return time >= line.start - LINE_LEAD_IN_SECONDS && time < Math.min(line.end + LINE_HOLD_SECONDS, nextStart - LINE_LEAD_IN_SECONDS);
  });
  const line = lines[index];
  if (!line) return null;
  const current = line.words.findIndex((word) => time >= word.start && time < word.end);
  return { line, current, age: time - (line.start - LINE_LEAD_IN_SECONDS) };
}

export interface AnimationState {
  alpha: number;
  scale: number;
  /** Vertical offset as a share of the font size. */
  offsetY: number;
}

const ANIMATION_SECONDS = 0.3;

/** The entrance animation at `age` seconds into a line (pulse keeps beating). */
export function animationAt(animation: TextAnimation, age: number): AnimationState {
  const p = Math.min(1, Math.max(0, age / ANIMATION_SECONDS));
  switch (animation) {
    case 'fade':
      return { alpha: p, scale: 1, offsetY: 0 };
    case 'slide':
      return { alpha: p, scale: 1, offsetY: (1 - p) * 1.5 };
    case 'zoom':
      return { alpha: p, scale: 0.5 + 0.5 * p, offsetY: 0 };
    case 'bounce':
      return { alpha: 1, scale: 1, offsetY: age < ANIMATION_SECONDS * 2 ? -Math.abs(Math.sin((age / (ANIMATION_SECONDS * 2)) * Math.PI * 2)) * 0.6 * (1 - age / (ANIMATION_SECONDS * 2)) : 0 };
    case 'pulse':
      return { alpha: 1, scale: 1 + 0.06 * Math.sin(age * Math.PI * 2), offsetY: 0 };
    case 'none':
      return { alpha: 1, scale: 1, offsetY: 0 };
  }
}
