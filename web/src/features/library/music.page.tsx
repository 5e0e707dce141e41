import type { SongListEntry } from '@encore/common/library.contract';
import { Heart, LayoutGrid, Library, List, Music2, SearchX, TriangleAlert, Upload } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router';
import { StatusPanel } from '../../components/status-panel';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { Skeleton } from '../../components/ui/skeleton';
import { Spinner } from '../../components/ui/spinner';
import { ToggleGroup } from '../../components/ui/toggle-group';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import type { SongListFilter } from '../../lib/song-query-keys';
import { useDebounced } from '../../lib/use-debounced';
import { useDocumentTitle } from '../../lib/use-document-title';
import { songPageQuery, type SongPageRequest } from '../../lib/song-list.query';
import type { QueuePages } from '../../player/player-state';
import { ListeningHistory } from '../../player/listening-history.component';
import { useSongPage } from './library.queries';
import { PAGE_SIZE, useMusicView, type MusicView } from './music-view';
import { compactColumns, SongCard, SongRow } from './song-card.component';
import { cn } from '../../lib/cn';
import { musicTitleKey, songListFilterFrom } from './song-search';
import { TryAgainButton } from '../../components/try-again-button';
import { ListPageHeader } from '../../components/list-page-header';
import { SearchBox } from '../../components/search-box';
import { sortFrom, withSort } from './song-sort';
import { SongSortSelect } from './song-sort.component';

/** Other features' pieces on the music page, composed in web/src/pages/music.page.tsx. */
export interface MusicPageAddOns {
  /** The music folders' scan bar (issue 27), on All Music only. */
  MusicFoldersPanel: ComponentType;
  /** The artists and albums a search matches (issue 38), above its songs on All Music. */
  SearchGroups: ComponentType<{ query: string }>;
}

/**
 * The music collection (SPEC 2): all music, my music (?owner=true) or my favourites
 * (?favorites=true). `addOns` are the other features' pieces.
 */
export function MusicPage({ addOns }: { addOns: MusicPageAddOns }) {
  const [params] = useSearchParams();
  const { owner, favorites } = songListFilterFrom(params);
  const titleKey = musicTitleKey({ owner, favorites });
  useDocumentTitle(titleKey);
  // A new list starts on page 1 with an empty search.
  return <MusicCollection key={`${owner}:${favorites}`} filter={{ owner, favorites }} titleKey={titleKey} addOns={addOns} />;
}

function subtitleKey(filter: SongListFilter): MessageKey {
  if (filter.favorites) return 'libraryFavoritesDescription';
  if (filter.owner) return 'libraryMyMusicDescription';
  return 'libraryAllMusicDescription';
}

/** Typing pauses this long before the server is asked (each keystroke would be a request). */
const SEARCH_DELAY_MS = 250;

function MusicCollection({ filter, titleKey, addOns }: { filter: SongListFilter; titleKey: MessageKey; addOns: MusicPageAddOns }) {
  const t = useT();
  const count = useTCount();
  const client = useQueryClient();
  const [view, setView] = useMusicView();
  const [params, setParams] = useSearchParams();
  const sort = sortFrom(params);
  const [search, setSearch] = useState('');
  const [requestedPage, setRequestedPage] = useState(1);
  const query = useDebounced(search, SEARCH_DELAY_MS);
  const pageSize = PAGE_SIZE[view];
  // The server searches and pages; the browser keeps every page it has seen.
  const request: SongPageRequest = { ...filter, q: query, sort, limit: pageSize, offset: (requestedPage - 1) * pageSize };
  const songs = useSongPage(request);
  const total = songs.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  const items = songs.data?.songs ?? [];
  // The list has shrunk under the page asked for (songs deleted): its last page instead.
  if (songs.data && !songs.isPlaceholderData && requestedPage > pageCount) setRequestedPage(pageCount);
  // The next page is fetched ahead, so paging forward shows it at once.
  useEffect(() => {
    if (requestedPage < pageCount) void client.prefetchQuery(songPageQuery({ ...request, offset: requestedPage * pageSize }));
  });
  // Next/previous in the player go on through the other pages of this list (same search).
  const pages = useMemo<QueuePages>(
    () => ({
      offset: (page - 1) * pageSize,
      total,
      limit: pageSize,
      load: async (offset, limit) => (await client.fetchQuery(songPageQuery({ ...filter, q: query, sort, limit, offset }))).songs,
    }),
    [client, filter, query, sort, page, pageSize, total],
  );
  const searching = query !== '' || search.trim() !== '';

  const changeSort = (next: typeof sort) => {
    setParams(withSort(params, next), { replace: true });
    setRequestedPage(1);
  };
  const changeSearch = (value: string) => {
    setSearch(value);
    setRequestedPage(1);
  };
  // A new page starts at the top of the list, with the focus on the list (not on a page button far below).
  const changePage = (next: number) => {
    setRequestedPage(next);
    const list = document.getElementById('music-list');
    list?.focus({ preventScroll: true });
    list?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  const uploadButton = (
    <Button asChild>
      <Link to="/upload">
        <Upload aria-hidden className="size-4" />
        {t('uploadMusic')}
      </Link>
    </Button>
  );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader
        title={t(titleKey)}
        subtitle={
          <>
            {t(subtitleKey(filter))}
            {!searching && total > 0 ? (
              <span className="text-subtle">
                {' · '}
                {count('musicSongCount', total)}
              </span>
            ) : null}
          </>
        }
        action={uploadButton}
      />

      {!filter.owner && !filter.favorites ? <addOns.MusicFoldersPanel /> : null}
      {!filter.owner && !filter.favorites && !searching ? <ListeningHistory className="mt-8" /> : null}

      <div className="mt-7 flex flex-wrap items-center gap-3">
        <SearchBox
          className="min-w-[12rem] flex-1 basis-full sm:basis-0"
          label={t('musicSearchLabel')}
          placeholder={t('musicSearchPlaceholder')}
          value={search}
          onChange={changeSearch}
        />
        <SongSortSelect value={sort} onChange={changeSort} className="flex-1 sm:w-48 sm:flex-none" />
        <ToggleGroup<MusicView>
          label={t('musicViewLabel')}
          value={view}
          onValueChange={(next) => {
            setView(next);
            setRequestedPage(1);
          }}
          items={[
            { value: 'grid', label: t('musicViewGrid'), icon: <LayoutGrid aria-hidden /> },
            { value: 'compact', label: t('musicViewCompact'), icon: <List aria-hidden /> },
          ]}
          iconOnly="narrow"
          className="shrink-0"
        />
      </div>

      {!filter.owner && !filter.favorites && query.trim() !== '' ? <addOns.SearchGroups query={query} /> : null}

      <section id="music-list" tabIndex={-1} aria-label={t(titleKey)} className="mt-6 scroll-mt-24 rounded-2xl outline-none">
        {songs.isPending ? (
          <LoadingState view={view} />
        ) : songs.isError ? (
          <StatusPanel role="alert" tone="danger" icon={<TriangleAlert aria-hidden />} title={t('musicErrorTitle')} actions={<TryAgainButton query={songs} />}>
            {songs.error.message}
          </StatusPanel>
        ) : total === 0 && !searching ? (
          filter.favorites ? (
            <StatusPanel
              icon={<Heart aria-hidden />}
              title={t('musicEmptyFavoritesTitle')}
              actions={
                // No likes yet: the songs to like are in All Music.
                <Button asChild>
                  <Link to="/music">
                    <Library aria-hidden className="size-4" />
                    {t('browseAllMusic')}
                  </Link>
                </Button>
              }
            >
              {t('musicEmptyFavorites')}
            </StatusPanel>
          ) : (
            <StatusPanel icon={<Music2 aria-hidden />} title={t('musicEmptyTitle')} actions={uploadButton}>
              {t(filter.owner ? 'musicEmptyMine' : 'musicEmptyAll')}
            </StatusPanel>
          )
        ) : total === 0 ? (
          <StatusPanel
            icon={<SearchX aria-hidden />}
            title={t('musicNoResultsTitle')}
            actions={
              <Button variant="secondary" onClick={() => changeSearch('')}>
                {t('clearSearch')}
              </Button>
            }
          >
            {t('musicNoResultsBody', { query: search.trim() })}
          </StatusPanel>
        ) : (
          <>
            <SongList view={view} songs={items} pages={pages} />
            <Pagination
              page={page}
              pageCount={pageCount}
              onPageChange={changePage}
              className="mt-8"
              labels={{
                navigation: t('paginationLabel'),
                previous: t('paginationPrevious'),
                next: t('paginationNext'),
                previousPage: t('paginationPreviousPage'),
                nextPage: t('paginationNextPage'),
                page: (value) => t('paginationPage', { page: value }),
              }}
            />
          </>
        )}
      </section>
    </div>
  );
}

function SongList({ view, songs, pages }: { view: MusicView; songs: SongListEntry[]; pages: QueuePages }) {
  const t = useT();
  if (view === 'grid') {
    return (
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 lg:gap-5">
        {songs.map((song) => (
          <li key={song.id} className="min-w-0">
            <SongCard song={song} list={songs} pages={pages} />
          </li>
        ))}
      </ul>
    );
  }
  const withAlbum = songs.some((song) => song.album);
  return (
    <div className="rounded-2xl border border-border bg-surface/50 p-1.5 sm:p-2">
      <div
        aria-hidden
        className={cn(
          'hidden items-center gap-3 border-b border-border px-3 pt-1 pb-2 text-xs font-medium tracking-wide text-subtle uppercase sm:grid rtl:tracking-normal',
          compactColumns(withAlbum),
        )}
      >
        <span />
        <span />
        <span>{t('musicColumnTitle')}</span>
        {withAlbum ? <span>{t('musicColumnAlbum')}</span> : null}
        <span className="text-end">{t('musicColumnDuration')}</span>
        <span className="text-end">{t('musicColumnSize')}</span>
        <span className="text-end">{t('musicColumnAdded')}</span>
        <span />
      </div>
      <ul className="mt-1 flex flex-col gap-0.5">
        {songs.map((song) => (
          <li key={song.id}>
            <SongRow song={song} list={songs} pages={pages} withAlbum={withAlbum} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function LoadingState({ view }: { view: MusicView }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="flex items-center justify-center gap-3 text-sm text-muted">
        <Spinner className="size-5 text-accent" />
        {t('musicLoading')}
      </p>
      {view === 'grid' ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 lg:gap-5">
          {Array.from({ length: PAGE_SIZE.grid }, (_, index) => (
            <Skeleton key={index} className="aspect-[4/5] rounded-2xl" />
          ))}
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14" />
          ))}
        </div>
      )}
    </div>
  );
}
