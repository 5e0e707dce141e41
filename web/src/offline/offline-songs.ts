import type { ResolvedSong } from '../player/player-state';

/**
 * Songs and playlists saved for offline listening (issue 30), in this browser's Cache Storage:
 * each song's bytes under `/offline/songs/<id>` in one cache, the API answers the app reads
 * for them (the playlist, each song's details) under their own URLs in another, which the
 * service worker answers from when the server cannot be reached. Which playlists are saved,
 * with which songs and how many bytes, is kept in localStorage.
 */
export const SONG_CACHE = 'encore-offline-songs';
/** The service worker reads this one too (web/build/service-worker.js). */
export const API_CACHE = 'encore-offline-api';
const INDEX_KEY = 'encore.offline.playlists';

export interface SavedPlaylist {
  id: number;
  songIds: number[];
  bytes: number;
  savedAt: string;
}

export function songKey(songId: number): string {
  return `/offline/songs/${songId}`;
}

export function offlineSupported(): boolean {
  return typeof caches !== 'undefined' && typeof localStorage !== 'undefined';
}

/** The saved playlists' stored text: a stable snapshot for useSyncExternalStore. */
export function savedPlaylistsSnapshot(): string {
  try {
    return localStorage.getItem(INDEX_KEY) ?? '';
  } catch {
    return '';
  }
}

export function readSavedPlaylists(): Record<string, SavedPlaylist> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(INDEX_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, SavedPlaylist>) : {};
  } catch {
    return {};
  }
}

const listeners = new Set<() => void>();

function writeSavedPlaylists(index: Record<string, SavedPlaylist>): void {
  localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  for (const listener of listeners) listener();
}

export function subscribeSavedPlaylists(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The song's saved copy as a URL the player can play (a blob URL it releases), or null. */
export async function offlineSong(songId: number): Promise<ResolvedSong | null> {
  if (!offlineSupported()) return null;
  const cache = await caches.open(SONG_CACHE);
  const response = await cache.match(songKey(songId));
  if (!response) return null;
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  return { url, offline: true, release: () => URL.revokeObjectURL(url), bytes: () => blob.arrayBuffer() };
}

/** Where the app reads a song's details and a playlist (built from common/'s declarations by the caller). */
export interface OfflineUrls {
  songUrl: (songId: number) => string;
  playlistUrl: (playlistId: number) => string;
}

export interface SaveProgress {
  done: number;
  total: number;
  bytes: number;
}

export interface SaveDeps extends OfflineUrls {
  /** A URL of a stream the browser plays (`GET /files/{id}/play?format=browser`). */
  playUrl: (songId: number, signal: AbortSignal) => Promise<string>;
  /** Fetches an API read (one of `urls`) with the session's credentials (for the service worker's fallback). */
  apiResponse: (url: string, signal: AbortSignal) => Promise<Response>;
}

/**
 * Stores the playlist's songs (those not stored already), the playlist and each song's
 * details. Resumes where it stopped when called again.
 */
export async function savePlaylistOffline(
  playlistId: number,
  songIds: readonly number[],
  deps: SaveDeps,
  onProgress: (progress: SaveProgress) => void,
  signal: AbortSignal,
): Promise<SavedPlaylist> {
  const songs = await caches.open(SONG_CACHE);
  const api = await caches.open(API_CACHE);
  // Asked once: the browser may keep these files through storage pressure.
  void navigator.storage?.persist?.().catch(() => false);
  let bytes = 0;
  let done = 0;
  onProgress({ done, total: songIds.length, bytes });
  for (const id of songIds) {
    let stored = await songs.match(songKey(id));
    if (!stored) {
      const url = await deps.playUrl(id, signal);
      const response = await fetch(url, { signal });
      if (!response.ok) throw new Error(`The song could not be downloaded (${response.status})`);
      const blob = await response.blob();
      const type = response.headers.get('content-type') ?? blob.type;
      await songs.put(songKey(id), new Response(blob, { headers: { 'content-type': type, 'content-length': String(blob.size) } }));
      stored = await songs.match(songKey(id));
    }
    bytes += Number(stored?.headers.get('content-length') ?? 0);
    await api.put(deps.songUrl(id), await deps.apiResponse(deps.songUrl(id), signal));
    done += 1;
    onProgress({ done, total: songIds.length, bytes });
  }
  await api.put(deps.playlistUrl(playlistId), await deps.apiResponse(deps.playlistUrl(playlistId), signal));
  const saved: SavedPlaylist = { id: playlistId, songIds: [...songIds], bytes, savedAt: new Date().toISOString() };
  writeSavedPlaylists({ ...readSavedPlaylists(), [playlistId]: saved });
  return saved;
}

/** Removes the playlist's offline copy: its songs too, unless another saved playlist holds them. */
export async function removePlaylistOffline(playlistId: number, urls: OfflineUrls): Promise<void> {
  const index = readSavedPlaylists();
  const saved = index[playlistId];
  delete index[playlistId];
  const stillUsed = new Set(Object.values(index).flatMap((playlist) => playlist.songIds));
  const songs = await caches.open(SONG_CACHE);
  const api = await caches.open(API_CACHE);
  for (const id of saved?.songIds ?? []) {
    if (stillUsed.has(id)) continue;
    await songs.delete(songKey(id));
    await api.delete(urls.songUrl(id));
  }
  await api.delete(urls.playlistUrl(playlistId));
  writeSavedPlaylists(index);
}
