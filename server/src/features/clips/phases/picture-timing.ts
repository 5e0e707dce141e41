import type { Word } from '@encore/common/words.contract';

/**
 * When each picture starts: an even split of the clip, its inner boundaries moved to the
 * nearest beat (beatDetection) or lyric-line start (autoSync) within half a picture, keeping
 * every picture at least MIN_PICTURE_SECONDS long. Times are clip seconds; the result has one
 * start per picture plus the clip's end.
 */
export const MIN_PICTURE_SECONDS = 0.5;

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

/** Where lyric lines start, in clip seconds: the first word, and every word after a pause or a sentence end. */
export function lineStarts(words: readonly Word[], clipStart: number): number[] {
  const starts: number[] = [];
  const sorted = [...words].filter((w) => w.end > 0).sort((a, b) => a.start - b.start);
  sorted.forEach((word, index) => {
    const previous = sorted[index - 1];
    if (!previous || word.start - previous.end > 0.6 || /[.!?;:,]$/u.test(previous.text)) starts.push(word.start - clipStart);
  });
  return starts;
}
