import path from 'node:path';

/**
 * ffmpeg's demuxers for the formats Encore takes as songs: the uploads' (the audio sniffer's
 * list) and a music folder's (WMA, AIFF, Monkey's Audio, WavPack, Musepack, DSD, Matroska and
 * WebM audio). 'mov' matches ffmpeg's "mov,mp4,m4a,3gp,3g2,mj2" demuxer, 'matroska' its
 * "matroska,webm", 'iff' DSDIFF (.dff). Everything else is refused before it opens anything:
 * notably `hls` and `concat`, whose files name other files or URLs, and which ffmpeg picks
 * by content (an `#EXTM3U` after an ID3 tag is probed as HLS).
 */
export const SONG_DEMUXERS = ['mp3', 'wav', 'ogg', 'mov', 'aac', 'flac', 'asf', 'aiff', 'ape', 'wv', 'mpc', 'mpc8', 'dsf', 'iff', 'matroska'] as const;

/**
 * The input options for a song that came from a user: `-format_whitelist` of the song
 * demuxers, then `-i` with the file (as `file:` so no name is read as a protocol) or `pipe:0`.
 * The runner adds `-protocol_whitelist file,pipe` in front of every `-i`.
 */
export function songInputArgs(source: { file: string } | 'stdin'): string[] {
  const url = source === 'stdin' ? 'pipe:0' : `file:${path.resolve(source.file)}`;
  return ['-format_whitelist', SONG_DEMUXERS.join(','), '-i', url];
}
