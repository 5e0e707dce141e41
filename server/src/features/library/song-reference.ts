import { songKeyAtEndOf } from './upload-key.js';

/**
 * Which song a share request means. The client sends the song's page URL (`…/music/<id>`), an
 * API path (`/api/files/<id>/play`) or the signed play URL it was given; only the song's
 * identity is taken from it. The URL itself is never mailed, so its host does not matter.
 */
export type SongReference = { songId: number } | { storageKey: string };

const BY_ID = [/^\/music\/(\d{1,10})\/?$/, /^\/api\/files\/(\d{1,10})(?:\/(?:play|download))?\/?$/];

export function songReferenceFromUrl(value: string | undefined): SongReference | undefined {
  if (!value?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim(), 'http://encore.invalid');
  } catch {
    return undefined;
  }
  const path = safeDecode(url.pathname);
  for (const pattern of BY_ID) {
    const match = pattern.exec(path);
    if (match) return { songId: Number(match[1]) };
  }
  // What a storage key looks like is the library's to say.
  const storageKey = songKeyAtEndOf(path);
  return storageKey ? { storageKey } : undefined;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
