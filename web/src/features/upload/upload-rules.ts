/** SPEC 5: an audio media type, or a name ending .mp3. */
export function isMusicFile(file: Pick<File, 'name' | 'type'>): boolean {
  return file.type.startsWith('audio/') || file.name.toLowerCase().endsWith('.mp3');
}

/** What the picker offers (SPEC 2, plus FLAC, which the server accepts). */
export const UPLOAD_ACCEPT = 'audio/*,.mp3,.wav,.ogg,.m4a,.flac';

/** The limit the page states until the server's own setting has loaded (SPEC 9). */
export const DEFAULT_MAX_UPLOAD_MB = 10;
