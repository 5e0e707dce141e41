import { ALBUM_SORTS, type AlbumSort, type ListAlbumsOptions } from '@encore/common/browse.contract';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListPageHeader } from '../../components/list-page-header';
import { SearchBox } from '../../components/search-box';
import { useT } from '../../lib/i18n/i18n.store';
import { useDebounced } from '../../lib/use-debounced';
import { useDocumentTitle } from '../../lib/use-document-title';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { AlbumCard } from './album-card.component';
import { PagedList } from './browse-list.component';
import { useAlbumPages, useGenres } from './browse.queries';

const SORT_LABELS: Record<AlbumSort, MessageKey> = {
  name: 'browseSortName',
  recent: 'browseSortRecent',
  artist: 'browseSortArtist',
  year: 'browseSortYear',
  plays: 'browseSortPlays',
  random: 'browseSortRandom',
};
const DECADES = Array.from({ length: 11 }, (_, i) => 1920 + i * 10).reverse();
const selectClass =
  'h-10 rounded-lg border border-border bg-surface px-3 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** Albums (issue 38): a cover grid, sorted and filtered by genre, decade or year, paged on the server. Filters live in the URL. */
export function AlbumsPage() {
  const t = useT();
  useDocumentTitle('libraryAlbums');
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const sort = (ALBUM_SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as AlbumSort) : 'name';
  const genre = params.get('genre') ?? '';
  const decade = Number(params.get('decade') ?? '') || undefined;
  const year = Number(params.get('year') ?? '') || undefined;
  const filter: Omit<ListAlbumsOptions, 'cursor' | 'limit'> = { sort };
  if (q) filter.q = q;
  if (genre) filter.genre = genre;
  if (year !== undefined) Object.assign(filter, { yearFrom: year, yearTo: year });
  else if (decade !== undefined) Object.assign(filter, { yearFrom: decade, yearTo: decade + 9 });
  const query = useAlbumPages(filter);
  const genres = useGenres();
  const albums = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const set = (name: string, value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        if (name === 'decade') next.delete('year');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('libraryAlbums')} subtitle={t('browseAlbumsSubtitle')} action={null} />
      <SearchBox className="mt-7" label={t('browseSearchAlbums')} placeholder={t('browseSearchAlbums')} value={search} onChange={setSearch} />
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('browseSortLabel')}
          <select className={selectClass} value={sort} onChange={(event) => set('sort', event.target.value)}>
            {ALBUM_SORTS.map((value) => (
              <option key={value} value={value}>
                {t(SORT_LABELS[value])}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('browseGenreLabel')}
          <select className={selectClass} value={genre} onChange={(event) => set('genre', event.target.value)}>
            <option value="">{t('browseAny')}</option>
            {(genres.data ?? []).map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('browseDecadeLabel')}
          <select className={selectClass} value={decade ?? ''} onChange={(event) => set('decade', event.target.value)}>
            <option value="">{t('browseAny')}</option>
            {DECADES.map((value) => (
              <option key={value} value={value}>
                {t('browseDecade', { decade: value })}
              </option>
            ))}
          </select>
        </label>
        {decade !== undefined ? (
          <label className="flex flex-col gap-1 text-xs text-muted">
            {t('browseYearLabel')}
            <select className={selectClass} value={year ?? ''} onChange={(event) => set('year', event.target.value)}>
              <option value="">{t('browseAny')}</option>
              {Array.from({ length: 10 }, (_, i) => decade + i).map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <section aria-label={t('libraryAlbums')} className="mt-6">
        <PagedList query={query} count={albums.length}>
          <ul className="grid grid-cols-2 gap-5 sm:grid-cols-3 lg:grid-cols-5">
            {albums.map((album) => (
              <li key={album.id}>
                <AlbumCard album={album} />
              </li>
            ))}
          </ul>
        </PagedList>
      </section>
    </div>
  );
}
