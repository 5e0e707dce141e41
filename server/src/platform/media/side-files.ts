import path from 'node:path';

/**
 * The files beside the songs of a folder that belong to them: the album's cover picture
 * (`cover.jpg`, `Folder.png`…) and a song's `.lrc` lyrics (same name). The music folders' scan
 * and the `import` command read them alike.
 */

/** Pictures beside the songs that are the album's cover, in order of preference. */
const COVER_NAMES = ['cover', 'folder', 'front', 'album', 'albumart', 'albumartsmall'];
const COVER_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'];

function extensionOf(name: string): string {
  const ext = path.extname(name);
  return ext.length > 1 ? ext.slice(1).toLowerCase() : '';
}

/** The cover picture among a folder's file names (`cover.jpg`, `Folder.png`…), if any. */
export function coverAmong(names: readonly string[]): string | undefined {
  let best: { name: string; rank: number } | undefined;
  for (const name of names) {
    const ext = extensionOf(name);
    if (!COVER_EXTENSIONS.includes(ext)) continue;
    const base = name.slice(0, name.length - ext.length - 1).toLowerCase();
    const rank = COVER_NAMES.indexOf(base);
    if (rank >= 0 && (best === undefined || rank < best.rank)) best = { name, rank };
  }
  return best?.name;
}

/** The `.lrc` beside an audio file (same name, any case of the extension), among its folder's names. */
export function lyricsFileFor(audioName: string, names: readonly string[]): string | undefined {
  const base = audioName.slice(0, audioName.length - path.extname(audioName).length);
  return names.find((name) => extensionOf(name) === 'lrc' && name.slice(0, -4) === base);
}

/** Whether a file is one of those: an `.lrc`, or a picture named as a cover. */
export function isSideFile(name: string): boolean {
  return extensionOf(name) === 'lrc' || coverAmong([name]) !== undefined;
}
