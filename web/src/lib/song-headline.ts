/**
 * The name to show big on a song, with the artist on the line below it. Encore names a tagged
 * song "Artist - Title" (the display name, which lists, search and the player bar use); next to
 * an artist line that would say the artist twice, so the title alone is the headline there.
 * A display name of any other shape (a file name, an edited name) is shown as it is.
 */
export function songHeadline(song: { displayName: string; artist: string | null }): string {
  const artist = song.artist?.trim();
  if (!artist) return song.displayName;
  const prefix = `${artist} - `;
  const rest = song.displayName.slice(prefix.length).trim();
  return song.displayName.startsWith(prefix) && rest ? rest : song.displayName;
}
