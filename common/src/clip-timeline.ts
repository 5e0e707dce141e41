import type { ClipWord } from './clip-text.js';
import { CLIP_LIMITS, type Transition } from './clips.contract.js';

/**
 * The clip's timeline as both the renderer (ffmpeg) and the editor's live preview (a canvas)
 * make it: how long and how each transition runs, when each picture shows (evenly, or moved to
 * the beats or to the lyrics lines), and which picture is on screen at a time. One source, so
 * the preview shows what the render will be.
 */

/**
 * How each transition looks and lasts. `fade`: the next picture fades in over the current;
 * `push`: the next one pushes the current out to the left; `soft-wipe`: the next one shows from
 * the right edge through a soft edge a frame wide. (ffmpeg's xfade `fade`, `slideleft`, `smoothleft`.)
 */
export type TransitionLook = 'fade' | 'push' | 'soft-wipe';

export const CLIP_TRANSITIONS: Record<Exclude<Transition, 'none'>, { seconds: number; look: TransitionLook }> = {
  smooth: { seconds: 0.8, look: 'fade' },
  sharp: { seconds: 0.25, look: 'push' },
  elastic: { seconds: 0.6, look: 'soft-wipe' },
};

/** No picture shows for less than this when its start moves to a beat or a line. */
export const MIN_PICTURE_SECONDS = 0.5;

/** The clip's span in song seconds: from its start to its end or the song's end, at most the longest clip. */
export function clipSpan(settings: { startTime: number; endTime: number | null }, songSeconds: number): { start: number; end: number } {
  const start = Math.min(settings.startTime, songSeconds);
  const end = Math.max(start, Math.min(settings.endTime ?? songSeconds, songSeconds, start + CLIP_LIMITS.maxClipSeconds));
  return { start, end };
}

/**
 * When each picture starts: an even split of the clip, its inner boundaries moved to the
 * nearest anchor (a beat with beatDetection, a lyrics line's start with autoSync) within half a
 * picture, keeping every picture at least MIN_PICTURE_SECONDS long. Clip seconds; one start per
 * picture plus the clip's end.
 */
export function pictureBoundaries(count: number, duration: number, anchors: readonly number[] = []): number[] {
  if (count <= 0) return [0, duration];
  const step = duration / count;
  const bounds = Array.from({ length: count + 1 }, (_, i) => i * step);
  const sorted = [...anchors].filter((t) => t > 0 && t < duration).sort((a, b) => a - b);
  if (sorted.length === 0) return bounds;
  for (let i = 1; i < count; i++) {
    const target = bounds[i] ?? 0;
    const previous = bounds[i - 1] ?? 0;
    let best: number | undefined;
    for (const t of sorted) {
      if (Math.abs(t - target) > step / 2) continue;
      if (t - previous < MIN_PICTURE_SECONDS || duration - t < MIN_PICTURE_SECONDS * (count - i)) continue;
      if (best === undefined || Math.abs(t - target) < Math.abs(best - target)) best = t;
    }
    if (best !== undefined) bounds[i] = best;
    else bounds[i] = Math.max(target, previous + MIN_PICTURE_SECONDS);
  }
  return bounds;
}

/** Where lyric lines start, in clip seconds: a lyrics line's first word, and every word after a pause or a sentence end. */
export function lineStarts(words: readonly ClipWord[], clipStart: number): number[] {
  const starts: number[] = [];
  const sorted = [...words].filter((w) => w.end > 0).sort((a, b) => a.start - b.start);
  sorted.forEach((word, index) => {
    const previous = sorted[index - 1];
    if (!previous || word.lineStart === true || word.start - previous.end > 0.6 || /[.!?;:,]$/u.test(previous.text)) starts.push(word.start - clipStart);
  });
  return starts;
}

/** How long the transitions of these pictures run: the transition's length, at most half the shortest picture. */
export function transitionSeconds(boundaries: readonly number[], transition: Transition): number {
  const count = boundaries.length - 1;
  if (transition === 'none' || count < 2) return 0;
  let shortest = Infinity;
  for (let i = 0; i < count; i++) shortest = Math.min(shortest, (boundaries[i + 1] ?? 0) - (boundaries[i] ?? 0));
  return Math.max(0, Math.min(CLIP_TRANSITIONS[transition].seconds, shortest / 2));
}

export interface PictureFrame {
  /** The picture on screen (going out, while a transition runs). */
  index: number;
  /** The picture coming in, while a transition runs. */
  next: number | null;
  /** 0 → only `index`, 1 → only `next`. */
  mix: number;
}

/** The picture at a clip time: each picture takes over from its start, through the transition. */
export function pictureAt(time: number, boundaries: readonly number[], transition: Transition): PictureFrame {
  const count = boundaries.length - 1;
  if (count <= 1) return { index: 0, next: null, mix: 0 };
  let index = 0;
  for (let i = 1; i < count; i++) if ((boundaries[i] ?? Infinity) <= time) index = i;
  const length = transitionSeconds(boundaries, transition);
  const into = time - (boundaries[index] ?? 0);
  if (index === 0 || length <= 0 || into >= length) return { index, next: null, mix: 0 };
  return { index: index - 1, next: index, mix: Math.max(0, into / length) };
}

/**
 * beatDetection's onsets: energy rising above its recent average, peaks at least
 * MIN_ONSET_GAP_SECONDS apart, over mono samples at ONSET_SAMPLE_RATE (-1..1). Fed in chunks,
 * so a long song never sits in memory; the renderer feeds ffmpeg's decode, the preview the
 * browser's.
 */
export const ONSET_SAMPLE_RATE = 16_000;
const ONSET_FRAME = 512;
const ONSET_HISTORY = 43; // about 1.4 s of frames at 16 kHz
const ONSET_SENSITIVITY = 1.5;
const MIN_ONSET_GAP_SECONDS = 0.25;

export class OnsetDetector {
  readonly onsets: number[] = [];
  private readonly history: number[] = [];
  private readonly frame = new Float32Array(ONSET_FRAME);
  private filled = 0;
  private frameIndex = 0;
  private previousEnergy = 0;
  private last = -Infinity;

  constructor(private readonly sampleRate = ONSET_SAMPLE_RATE) {}

  push(samples: ArrayLike<number>): void {
    for (let i = 0; i < samples.length; i++) {
      this.frame[this.filled++] = samples[i] ?? 0;
      if (this.filled === ONSET_FRAME) this.endFrame();
    }
  }

  private endFrame(): void {
    this.filled = 0;
    let energy = 0;
    for (let i = 0; i < ONSET_FRAME; i++) energy += (this.frame[i] ?? 0) ** 2;
    energy /= ONSET_FRAME;
    const rise = Math.max(0, energy - this.previousEnergy);
    this.previousEnergy = energy;
    const mean = this.history.length > 0 ? this.history.reduce((a, b) => a + b, 0) / this.history.length : 0;
    const time = (this.frameIndex * ONSET_FRAME) / this.sampleRate;
    if (this.history.length >= 8 && rise > mean * ONSET_SENSITIVITY && rise > 1e-5 && time - this.last >= MIN_ONSET_GAP_SECONDS) {
      this.onsets.push(time);
      this.last = time;
    }
    this.history.push(rise);
    if (this.history.length > ONSET_HISTORY) this.history.shift();
    this.frameIndex++;
  }
}

/** The beats of the clip's part of the song, in clip seconds, from its onsets in song seconds. */
export function clipBeats(onsets: readonly number[], start: number, duration: number): number[] {
  return onsets.map((t) => t - start).filter((t) => t > 0 && t < duration);
}
