import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { ListPageHeader } from '../../components/list-page-header';
import { StatusPanel } from '../../components/status-panel';
import { TryAgainButton } from '../../components/try-again-button';
import { Spinner } from '../../components/ui/spinner';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useGenres } from './browse.queries';

/** Genres (issue 38): each with its albums and songs; a genre opens its albums. */
export function GenresPage() {
  const t = useT();
  const count = useTCount();
  useDocumentTitle('libraryGenres');
  const genres = useGenres();
  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('libraryGenres')} subtitle={t('browseGenresSubtitle')} action={null} />
      <section aria-label={t('libraryGenres')} className="mt-6">
        {genres.isPending ? (
          <p role="status" className="flex items-center justify-center gap-3 text-sm text-muted">
            <Spinner className="size-5 text-accent" />
            {t('browseLoading')}
          </p>
        ) : genres.isError ? (
          <StatusPanel
            role="alert"
            tone="danger"
            icon={<TriangleAlert aria-hidden />}
            title={t('browseLoadFailed')}
            actions={<TryAgainButton query={genres} />}
          />
        ) : genres.data.length === 0 ? (
          <p className="text-center text-sm text-muted">{t('browseEmpty')}</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {genres.data.map((genre) => (
              <li key={genre.name}>
                <Link
                  to={`/albums?genre=${encodeURIComponent(genre.name)}`}
                  className="flex flex-col gap-1 rounded-xl border border-border bg-surface/70 p-4 outline-none hover:border-accent/50 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="font-semibold">
                    <bdi>{genre.name}</bdi>
                  </span>
                  <span className="text-xs text-muted">
                    {count('browseAlbumCount', genre.albumCount)} · {count('browseSongCount', genre.songCount)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
