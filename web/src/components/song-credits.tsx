import type { SongListEntry } from '@encore/common/library.contract';
import { Link } from 'react-router';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';

type Credited = Pick<SongListEntry, 'artist' | 'album' | 'artistId' | 'albumId'>;

/**
 * Above a card's stretched link (the whole card opens the song): the artist and album links are
 * their own targets, reached by Tab in reading order.
 */
const linkClass =
  'relative z-10 rounded-sm outline-none hover:text-foreground hover:underline focus-visible:text-foreground focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring';

/** The song's artist: a link to the artist page when the browse model has filed it, else the name (or "Unknown artist"). */
export function ArtistLink({ song, className }: { song: Credited; className?: string }) {
  const t = useT();
  if (song.artist === null) return <bdi className={className}>{t('unknownArtist')}</bdi>;
  if (song.artistId === null) return <bdi className={className}>{song.artist}</bdi>;
  return (
    <Link to={`/artists/${song.artistId}`} className={cn(linkClass, className)} data-testid="song-artist-link">
      <bdi>{song.artist}</bdi>
    </Link>
  );
}

/** The song's album: a link to the album page when it has an album tag and the browse model has filed it; nothing without a tag. */
export function AlbumLink({ song, className }: { song: Credited; className?: string }) {
  if (!song.album) return null;
  if (song.albumId === null) return <bdi className={className}>{song.album}</bdi>;
  return (
    <Link to={`/albums/${song.albumId}`} className={cn(linkClass, className)} data-testid="song-album-link">
      <bdi>{song.album}</bdi>
    </Link>
  );
}

/** "Artist · Album" on one truncated line; the album only when asked for and tagged. */
export function SongCredits({ song, withAlbum = false, className }: { song: Credited; withAlbum?: boolean; className?: string }) {
  return (
    <p className={cn('truncate', className)}>
      <ArtistLink song={song} />
      {withAlbum && song.album ? (
        <>
          {' · '}
          <AlbumLink song={song} />
        </>
      ) : null}
    </p>
  );
}
