import type { Song } from '@encore/common/library.contract';
import { ListMusic } from 'lucide-react';
import { CoverArt } from '../../components/cover-art';
import { cn } from '../../lib/cn';
import { useAllSongs } from './playlists.queries';

/** The first covers of a playlist's songs, in playlist order (the songs the library knows). */
export function coverKeysOf(songIds: readonly number[], songs: readonly Pick<Song, 'id' | 'hasCover' | 's3Key'>[]): string[] {
  const byId = new Map(songs.map((song) => [song.id, song]));
  const keys: string[] = [];
  for (const id of songIds) {
    const song = byId.get(id);
    if (song?.hasCover && !keys.includes(song.s3Key)) keys.push(song.s3Key);
    if (keys.length === 4) break;
  }
  return keys;
}

/**
 * A playlist's cover built from its songs' covers, as Navidrome and Spotify do: four make a
 * 2x2 mosaic, one to three show the first; none shows the playlist mark. Decorative.
 */
export function PlaylistCover({ songs, className }: { songs: readonly Pick<Song, 'id'>[]; className?: string }) {
  const library = useAllSongs();
  // A playlist page has its songs in full; a card knows their ids, the library the rest.
  const known = [...songs.filter((song): song is Song => 's3Key' in song), ...(library.data ?? [])];
  const keys = coverKeysOf(
    songs.map((song) => song.id),
    known,
  );
  const frame = cn('relative shrink-0 overflow-hidden rounded-xl shadow-lg shadow-fuchsia-950/40', className);
  if (keys.length === 0) {
    return (
      <span aria-hidden data-testid="playlist-cover" data-covers={0} className={cn(frame, 'grid place-items-center bg-accent-gradient text-white')}>
        <ListMusic className="size-1/2" />
      </span>
    );
  }
  const tiles = keys.length >= 4 ? keys : keys.slice(0, 1);
  return (
    <span aria-hidden data-testid="playlist-cover" data-covers={tiles.length} className={cn(frame, 'grid', tiles.length === 4 && 'grid-cols-2 grid-rows-2')}>
      {tiles.map((key) => (
        <CoverArt key={key} fileKey={key} size="thumb" className="size-full" />
      ))}
    </span>
  );
}
