import type { AlbumSummary, ArtistSummary } from '@encore/common/browse.contract';
import { Link } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { useTCount } from '../../lib/i18n/i18n.store';

/** An album in a grid: its cover, name, artist and year; the name links to the album page. */
export function AlbumCard({ album, showArtist = true }: { album: AlbumSummary; showArtist?: boolean }) {
  return (
    <article className="group relative flex flex-col gap-2" data-testid="album-card">
      <CoverArt fileKey={album.coverKey} size="thumb" className="aspect-square w-full rounded-xl" />
      <h3 className="line-clamp-2 text-sm leading-snug font-semibold break-words">
        <Link
          to={`/albums/${album.id}`}
          className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
        >
          <bdi>{album.name}</bdi>
        </Link>
      </h3>
      <p className="-mt-1 truncate text-xs text-muted">
        {showArtist ? <bdi>{album.artist.name}</bdi> : null}
        {showArtist && album.year !== null ? ' · ' : null}
        {album.year !== null ? <bdi dir="ltr">{album.year}</bdi> : null}
      </p>
    </article>
  );
}

/** An artist's picture: a cover of theirs, a mosaic of up to four album covers, or a placeholder. */
export function ArtistImage({ artist, className }: { artist: Pick<ArtistSummary, 'imageKey' | 'mosaicKeys'>; className?: string }) {
  if (artist.mosaicKeys.length >= 4) {
    return (
      <div className={`grid grid-cols-2 overflow-hidden ${className ?? ''}`}>
        {artist.mosaicKeys.slice(0, 4).map((key) => (
          <CoverArt key={key} fileKey={key} size="thumb" className="aspect-square w-full" />
        ))}
      </div>
    );
  }
  return <CoverArt fileKey={artist.imageKey} size="thumb" className={className} />;
}

/** An artist in a grid or list: picture, name, album count; links to the artist page. */
export function ArtistCard({ artist }: { artist: ArtistSummary }) {
  const count = useTCount();
  return (
    <article className="relative flex flex-col items-center gap-2 text-center" data-testid="artist-card">
      <ArtistImage artist={artist} className="aspect-square w-full rounded-full" />
      <h3 className="line-clamp-2 text-sm font-semibold break-words">
        <Link
          to={`/artists/${artist.id}`}
          className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
        >
          <bdi>{artist.name}</bdi>
        </Link>
      </h3>
      <p className="-mt-1 text-xs text-muted">{count('browseAlbumCount', artist.albumCount)}</p>
    </article>
  );
}
