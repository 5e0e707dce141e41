import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a music folder holds, by name: the audio formats the field plays, the pictures that are
 * an album's cover, the lyrics and playlists beside the songs.
 */

/** Audio files by extension, with the MIME type Encore serves them under when the sniffer does not know the format. */
export const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  mp2: 'audio/mpeg',
  mp1: 'audio/mpeg',
  mpa: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  spx: 'audio/ogg',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  bwf: 'audio/wav',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  aifc: 'audio/aiff',
  wma: 'audio/x-ms-wma',
  asf: 'audio/x-ms-wma',
  ape: 'audio/ape',
  wv: 'audio/wavpack',
  mpc: 'audio/musepack',
  mp_: 'audio/musepack',
  dsf: 'audio/dsf',
  dff: 'audio/dff',
  mka: 'audio/x-matroska',
  webm: 'audio/webm',
  weba: 'audio/webm',
};

/** Playlist files: M3U lists of songs, and Navidrome's smart playlists (.nsp rules). */
export const PLAYLIST_EXTENSIONS = new Set(['m3u', 'm3u8', 'nsp']);

export function extensionOf(name: string): string {
  const ext = path.extname(name);
  return ext.length > 1 ? ext.slice(1).toLowerCase() : '';
}

/**
 * A file a scan reads as a possible song: one of the extensions above, or none at all (taken
 * only when its content sniffs as audio, see the scanner). Other extensions are not read.
 */
export function isAudioName(name: string): boolean {
  const ext = extensionOf(name);
  return ext === '' || Object.hasOwn(AUDIO_TYPES, ext);
}

const SAMPLE_BYTES = 64 * 1024;

/**
 * A fingerprint of the file's content (read through `handle`, which the caller closes), independent of its name and place: its length and three
 * samples from the middle of it, where the audio is (tags live at the ends). A moved or renamed
 * file has the same one; reading it costs three small reads, not the whole file.
 */
export async function fingerprintOf(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${size}:`);
  if (size <= SAMPLE_BYTES * 4) {
    const bytes = Buffer.alloc(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    hash.update(bytes.subarray(0, bytesRead));
  } else {
    const bytes = Buffer.alloc(SAMPLE_BYTES);
    for (const fraction of [0.25, 0.5, 0.75]) {
      const { bytesRead } = await handle.read(bytes, 0, SAMPLE_BYTES, Math.floor(size * fraction));
      hash.update(bytes.subarray(0, bytesRead));
    }
  }
  return hash.digest('base64url');
}

/** A path below a folder, with `/` whatever the system's separator. */
export function relativePath(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}

export function absolutePath(folder: string, relative: string): string {
  return path.join(folder, ...relative.split('/'));
}
