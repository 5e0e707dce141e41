/** Case-insensitive match of a playlist's name or description (SPEC 5). */
export function filterPlaylists<T extends { name: string; description: string | null }>(playlists: readonly T[], search: string): T[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...playlists];
  return playlists.filter(
    (playlist) => playlist.name.toLocaleLowerCase().includes(needle) || (playlist.description ?? '').toLocaleLowerCase().includes(needle),
  );
}
