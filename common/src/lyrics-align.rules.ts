import type { Word } from './words.contract.js';
import { round } from './lyrics-timing.rules.js';

/**
 * Word timings after a text edit: the old and new words are aligned (longest common
 * subsequence on a loose form of each word); words found unchanged keep their times, and each
 * changed stretch is re-timed within the time its old words occupied (or the gap between its
 * unchanged neighbours), shared by length.
 */

/** Above this many cells the alignment narrows to the common prefix and suffix only. */
const LCS_MAX_CELLS = 16_000_000;

/** Case, punctuation and accents do not make a word different for alignment. */
export function alignmentKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Pairs of equal keys (oldIndex, newIndex), increasing in both: a longest common subsequence,
 * found between the common prefix and suffix.
 */
export function alignKeys(oldKeys: readonly string[], newKeys: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  let head = 0;
  while (head < oldKeys.length && head < newKeys.length && oldKeys[head] === newKeys[head]) {
    pairs.push([head, head]);
    head += 1;
  }
  let oldTail = oldKeys.length;
  let newTail = newKeys.length;
  const tail: [number, number][] = [];
  while (oldTail > head && newTail > head && oldKeys[oldTail - 1] === newKeys[newTail - 1]) {
    oldTail -= 1;
    newTail -= 1;
    tail.unshift([oldTail, newTail]);
  }
  const rows = oldTail - head;
  const cols = newTail - head;
  if (rows > 0 && cols > 0 && rows * cols <= LCS_MAX_CELLS) {
    // lengths[i][j]: LCS of old[i..] and new[j..], rolled into one flat array.
    const width = cols + 1;
    const lengths = new Uint32Array((rows + 1) * width);
    for (let i = rows - 1; i >= 0; i -= 1) {
      for (let j = cols - 1; j >= 0; j -= 1) {
        lengths[i * width + j] =
          oldKeys[head + i] === newKeys[head + j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < rows && j < cols) {
      if (oldKeys[head + i] === newKeys[head + j]) {
        pairs.push([head + i, head + j]);
        i += 1;
        j += 1;
      } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i += 1;
      else j += 1;
    }
  }
  return [...pairs, ...tail];
}

/**
 * The new words (texts as given) with times: kept from the old word each is aligned with,
 * spread over the changed stretch otherwise. `endLimit` caps the last stretch (the song's end).
 */
export function realignWords(oldWords: readonly Word[], newTexts: readonly string[], endLimit?: number): Word[] {
  if (newTexts.length === 0) return [];
  if (oldWords.length === 0) return [];
  const pairs = alignKeys(
    oldWords.map((word) => alignmentKey(word.text)),
    newTexts.map((text) => alignmentKey(text)),
  ).filter(([oldIndex, newIndex]) => alignmentKey(newTexts[newIndex]!) !== '' || oldWords[oldIndex]!.text === newTexts[newIndex]);
  const result: (Word | null)[] = newTexts.map(() => null);
  for (const [oldIndex, newIndex] of pairs) {
    const old = oldWords[oldIndex]!;
    result[newIndex] = { text: newTexts[newIndex]!, start: old.start, end: old.end };
  }
  // Changed stretches: between consecutive pairs (and before the first, after the last).
  const anchors: [number, number][] = [[-1, -1], ...pairs, [oldWords.length, newTexts.length]];
  const lastEnd = Math.max(endLimit ?? 0, oldWords.at(-1)!.end);
  for (let a = 0; a + 1 < anchors.length; a += 1) {
    const [oldFrom, newFrom] = anchors[a]!;
    const [oldTo, newTo] = anchors[a + 1]!;
    if (newTo - newFrom <= 1) continue;
    const removed = oldWords.slice(oldFrom + 1, oldTo);
    const before = oldFrom >= 0 ? oldWords[oldFrom]!.end : 0;
    const after = oldTo < oldWords.length ? oldWords[oldTo]!.start : lastEnd;
    let start = removed.length > 0 ? removed[0]!.start : before;
    let end = removed.length > 0 ? removed.at(-1)!.end : after;
    if (end - start < 0.05 * (newTo - newFrom - 1)) {
      // Words inserted where there was no room: take the whole gap to the neighbours.
      start = Math.min(start, before);
      end = Math.max(end, after);
    }
    spread(newTexts.slice(newFrom + 1, newTo), start, Math.max(start, end)).forEach((word, offset) => {
      result[newFrom + 1 + offset] = word;
    });
  }
  return result.map((word, index) => word ?? { text: newTexts[index]!, start: 0, end: 0 });
}

/** Words over [start, end], each given time by its length in characters (at least one). */
export function spread(texts: readonly string[], start: number, end: number): Word[] {
  const weights = texts.map((text) => Math.max(1, [...text].length));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let cursor = start;
  return texts.map((text, index) => {
    const length = ((end - start) * weights[index]!) / total;
    const word = { text, start: round(cursor), end: round(index === texts.length - 1 ? end : cursor + length) };
    cursor += length;
    return word;
  });
}
