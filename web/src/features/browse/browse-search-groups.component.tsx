import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { ArtistImage } from './album-card.component';
import { fetchAlbums, fetchArtists } from './browse.api';

/** How many artists and albums a search shows above its songs; the Artists and Albums pages have the rest. */
export const SEARCH_GROUP_LIMIT = 6;

/**
 * The artists and albums a search of the music page matches (issue 38), as two compact groups
 * above its songs, each linking to its page. Nothing while the answers are on their way, or
 * when neither matches: the songs below keep the search's own states.
 */
export function BrowseSearchGroups({ query }: { query: string }) {
  const t = useT();
  const count = useTCount();
  const q = query.trim();
  const artists = useQuery({
    queryKey: ['browse', 'search', 'artists', q],
    queryFn: ({ signal }) => fetchArtists({ q, limit: SEARCH_GROUP_LIMIT }, signal),
    enabled: q !== '',
    staleTime: 30_000,
  });
  const albums = useQuery({
    queryKey: ['browse', 'search', 'albums', q],
    queryFn: ({ signal }) => fetchAlbums({ q, limit: SEARCH_GROUP_LIMIT }, signal),
    enabled: q !== '',
    staleTime: 30_000,
  });
  const artistItems = q === '' ? [] : (artists.data?.items ?? []);
  const albumItems = q === '' ? [] : (albums.data?.items ?? []);
  if (artistItems.length === 0 && albumItems.length === 0) return null;

  return (
    <section aria-label={t('browseSearchGroups', { query: q })} className="mt-6 flex flex-col gap-5" data-testid="search-groups">
      {artistItems.length > 0 ? (
        <div>
          <h2 className="mb-2 text-sm font-semibold tracking-wide text-muted uppercase rtl:tracking-normal">{t('browseSearchArtistsGroup')}</h2>
          <ul className="flex flex-wrap gap-2">
            {artistItems.map((artist) => (
              <li key={artist.id} className="max-w-full min-w-0">
                <Link
                  to={`/artists/${artist.id}`}
                  className="flex max-w-full items-center gap-2 rounded-full border border-border bg-surface/70 py-1 ps-1 pe-3.5 text-sm transition-colors outline-none hover:border-accent/50 hover:bg-white/5 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <ArtistImage artist={artist} className="size-8 shrink-0 overflow-hidden rounded-full" />
                  <span className="min-w-0 truncate font-medium">
                    <bdi>{artist.name}</bdi>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {albumItems.length > 0 ? (
        <div>
          <h2 className="mb-2 text-sm font-semibold tracking-wide text-muted uppercase rtl:tracking-normal">{t('browseSearchAlbumsGroup')}</h2>
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {albumItems.map((album) => (
              <li key={album.id} className="min-w-0">
                <Link
                  to={`/albums/${album.id}`}
                  className="flex items-center gap-3 rounded-xl border border-border bg-surface/70 p-1.5 pe-3 transition-colors outline-none hover:border-accent/50 hover:bg-white/5 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <CoverArt fileKey={album.coverKey} size="thumb" className="size-11 shrink-0 rounded-lg" />
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate text-sm font-semibold">
                      <bdi>{album.name}</bdi>
                    </span>
                    <span className="truncate text-xs text-muted">
                      <bdi>{album.artist.name}</bdi>
                      {' · '}
                      {count('browseSongCount', album.songCount)}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
