import type { Transition } from '@encore/common/clips.contract';

/**
 * Which picture the live preview shows at a time (and the next one, mid-transition). Pure, so
 * the canvas only draws what these functions say. (The words are libass's: subtitle-layer.ts.)
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
