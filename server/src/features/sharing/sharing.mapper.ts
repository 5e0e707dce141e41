import type { SharedSong } from '@encore/common/library.contract';
import type { SharedSongView } from './sharing.service.js';

/** The public share page's data in the REST contract's shape. */
export function toSharedSong({ song, media, link }: SharedSongView): SharedSong {
  return {
    displayName: song.displayName,
    artist: song.artist,
    album: song.album,
    durationSeconds: song.durationSeconds,
    hasCover: song.hasCover,
    streamUrl: media.streamUrl,
    coverUrl: media.coverUrl,
    sharedBy: link.sharedBy,
    expiresAt: link.expiresAt.toISOString(),
  };
}
