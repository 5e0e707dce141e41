import type { SongListEntry } from '@encore/common/library.contract';
import { ListMusic } from 'lucide-react';
import { CoverArt } from '../../components/cover-art';
import { cn } from '../../lib/cn';
import { useSongsByIds } from './playlists.queries';

/** A card knows only its songs' ids: this many are looked up for the mosaic's four covers. */
const COVER_CANDIDATES = 8;

/** The first covers of a playlist's songs, in playlist order (the songs the library knows). */
export function coverKeysOf(songIds: readonly number[], songs: readonly Pick<SongListEntry, 'id' | 'hasCover' | 's3Key'>[]): string[] {
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
export function PlaylistCover({ songs, className }: { songs: readonly Pick<SongListEntry, 'id'>[]; className?: string }) {
  const full = songs.filter((song): song is SongListEntry => 's3Key' in song);
  // A playlist page has its songs in full; a card knows their ids, and looks the first few up.
  const looked = useSongsByIds(full.length > 0 ? [] : songs.slice(0, COVER_CANDIDATES).map((song) => song.id));
  const known = [...full, ...looked.flatMap((result) => (result.data ? [result.data] : []))];
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
