/** Pure helpers for the order of a playlist's rows. */

/** `items` with the one at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  if (from < 0 || from >= items.length) return result;
  const target = Math.min(Math.max(to, 0), items.length - 1);
  const [moved] = result.splice(from, 1);
  result.splice(target, 0, moved as T);
  return result;
}

/** `songs` in the order of `ids`; songs the ids do not name keep their place at the end. */
export function orderSongsBy<T extends { id: number }>(songs: readonly T[], ids: readonly number[]): T[] {
  const byId = new Map(songs.map((song) => [song.id, song]));
  const ordered = ids.map((id) => byId.get(id)).filter((song): song is T => song !== undefined);
  const named = new Set(ids);
  return [...ordered, ...songs.filter((song) => !named.has(song.id))];
}
