import type { SongListEntry } from '@encore/common/library.contract';

/**
 * The play queue as data (issue 30): pure operations on the list of songs and the position of
 * the one playing, so the store, the queue panel and the tests share one set of rules.
 */
export interface QueueSnapshot {
  queue: readonly SongListEntry[];
  /** Position of the song playing; -1 when none. */
  index: number;
}

export const REPEAT_MODES = ['off', 'all', 'one'] as const;
export type RepeatMode = (typeof REPEAT_MODES)[number];

/** Off → all → one → off: the repeat button's cycle. */
export function nextRepeatMode(mode: RepeatMode): RepeatMode {
  return REPEAT_MODES[(REPEAT_MODES.indexOf(mode) + 1) % REPEAT_MODES.length] ?? 'off';
}

/** Songs to play right after the current one (or first, when nothing plays). */
export function insertNext(snapshot: QueueSnapshot, songs: readonly SongListEntry[]): QueueSnapshot {
  const at = snapshot.index + 1;
  return { queue: [...snapshot.queue.slice(0, at), ...songs, ...snapshot.queue.slice(at)], index: snapshot.index };
}

/** Songs at the end of the queue. */
export function append(snapshot: QueueSnapshot, songs: readonly SongListEntry[]): QueueSnapshot {
  return { queue: [...snapshot.queue, ...songs], index: snapshot.index };
}

/** Moves the song at `from` to `to`; the song playing keeps playing wherever it lands. */
export function move(snapshot: QueueSnapshot, from: number, to: number): QueueSnapshot {
  const { queue, index } = snapshot;
  if (from === to || from < 0 || from >= queue.length || to < 0 || to >= queue.length) return snapshot;
  const next = [...queue];
  const [song] = next.splice(from, 1);
  if (!song) return snapshot;
  next.splice(to, 0, song);
  let current = index;
  if (index === from) current = to;
  else if (from < index && to >= index) current = index - 1;
  else if (from > index && to <= index) current = index + 1;
  return { queue: next, index: current };
}

/**
 * Takes the song at `at` out. Removing the song playing leaves `index` on the song that took
 * its place (the caller plays it, or stops when the queue is empty).
 */
export function removeAt(snapshot: QueueSnapshot, at: number): QueueSnapshot {
  const { queue, index } = snapshot;
  if (at < 0 || at >= queue.length) return snapshot;
  const next = queue.filter((_, position) => position !== at);
  if (next.length === 0) return { queue: next, index: -1 };
  if (at < index) return { queue: next, index: index - 1 };
  if (at === index) return { queue: next, index: Math.min(index, next.length - 1) };
  return { queue: next, index };
}

/** Clears the queue but for the song playing. */
export function clearUpcoming(snapshot: QueueSnapshot): QueueSnapshot {
  const current = snapshot.queue[snapshot.index];
  return current ? { queue: [current], index: 0 } : { queue: [], index: -1 };
}

/** A uniformly random order (Fisher-Yates); `random` is injectable for tests. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

/**
 * Shuffle on: the song playing first, every other song once after it in a random order, so no
 * song repeats until all have played.
 */
export function shuffleFromCurrent(snapshot: QueueSnapshot, random: () => number = Math.random): QueueSnapshot {
  const current = snapshot.queue[snapshot.index];
  if (!current) return { queue: shuffled(snapshot.queue, random), index: snapshot.index };
  const others = snapshot.queue.filter((_, position) => position !== snapshot.index);
  return { queue: [current, ...shuffled(others, random)], index: 0 };
}

/**
 * A new round of a shuffled queue that repeats: all songs in a new order, the song that just
 * played not first (no song twice in a row across the rounds).
 */
export function reshuffleRound(queue: readonly SongListEntry[], last: SongListEntry | null, random: () => number = Math.random): SongListEntry[] {
  const round = shuffled(queue, random);
  if (round.length > 1 && last && round[0]?.id === last.id) {
    const swap = 1 + Math.floor(random() * (round.length - 1));
    [round[0], round[swap]] = [round[swap] as SongListEntry, round[0]];
  }
  return round;
}

/**
 * Shuffle off: the songs back in the order they had before (`original`, by id), then those added
 * while shuffled, in their queue order; the song playing stays the current one.
 */
export function unshuffle(snapshot: QueueSnapshot, original: readonly number[]): QueueSnapshot {
  const rank = new Map(original.map((id, position) => [id, position]));
  const known = snapshot.queue.filter((song) => rank.has(song.id)).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  const added = snapshot.queue.filter((song) => !rank.has(song.id));
  // A song queued twice keeps both places: the sort above is stable, the duplicates stay together.
  const queue = [...known, ...added];
  const currentSong = snapshot.queue[snapshot.index];
  const index = currentSong ? queue.indexOf(currentSong) : -1;
  return { queue, index };
}
