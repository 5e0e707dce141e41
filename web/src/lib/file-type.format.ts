/** Names users know for the audio types Encore accepts, by MIME type. */
const NAMES: Record<string, string> = {
  'audio/mpeg': 'MP3',
  'audio/mp3': 'MP3',
  'audio/wav': 'WAV',
  'audio/x-wav': 'WAV',
  'audio/wave': 'WAV',
  'audio/ogg': 'OGG',
  'audio/opus': 'Opus',
  'audio/mp4': 'M4A',
  'audio/x-m4a': 'M4A',
  'audio/aac': 'AAC',
  'audio/flac': 'FLAC',
  'audio/x-flac': 'FLAC',
};

/**
 * "MP3", "FLAC"... rather than a MIME type: from the type when Encore knows it, else from the
 * file name's extension, else the type's own subtype in capitals.
 */
export function formatFileType(fileType: string, fileName: string): string {
  const known = NAMES[fileType.trim().toLowerCase()];
  if (known) return known;
  const extension = /\.([a-z0-9]{2,5})$/i.exec(fileName)?.[1];
  if (extension) return extension.toUpperCase();
  const subtype = /^[a-z]+\/(?:x-)?([a-z0-9.+-]+)$/i.exec(fileType.trim())?.[1];
  return subtype ? subtype.toUpperCase() : fileType;
}
