import { sessionStore } from '../lib/session.store';
import type { Song } from '@encore/common/library.contract';

/** A song as the API answers it, with the fields a test cares about overridden. */
export function makeSong(id: number, overrides: Partial<Song> = {}): Song {
  return {
    id,
    displayName: `Song ${id}`,
    fileName: `song-${id}.mp3`,
    fileType: 'audio/mpeg',
    s3Key: `songs/${id}.mp3`,
    size: 1000,
    uploadedAt: '2026-03-05T12:00:00Z',
    isLiked: false,
    transcript: null,
    folderId: 0,
    title: null,
    artist: null,
    album: null,
    albumArtist: null,
    genre: null,
    year: null,
    trackNumber: null,
    discNumber: null,
    durationSeconds: 180,
    bitrate: null,
    sampleRate: null,
    hasCover: false,
    uploadedBy: 'ada',
    isOwner: true,
    artistId: null,
    albumId: null,
    ...overrides,
  };
}

/** `count` songs numbered from 1: "Song 1", "Song 2"... */
export function makeSongs(count: number, overrides: (index: number) => Partial<Song> = () => ({})): Song[] {
  return Array.from({ length: count }, (_, index) => makeSong(index + 1, overrides(index + 1)));
}

/** Signs a user in the way a stored token does (the session store reads it on /signin or restore). */
export function storeSession(userName = 'ada', email = 'ada@example.com'): void {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userName', userName);
  localStorage.setItem('email', email);
}

/** A signed-in session for the test about to run: `beforeEach(signInForTest)`. */
export function signInForTest(): void {
  sessionStore.reset();
  storeSession();
  sessionStore.syncWithStoredToken();
}
