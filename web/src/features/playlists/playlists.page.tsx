import { ListMusic, Plus, SearchX, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { StatusPanel } from '../../components/status-panel';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PlaylistCard } from './playlist-card.component';
import { filterPlaylists } from './playlist-search';
import { usePlaylists } from './playlists.queries';
import { TryAgainButton } from '../../components/try-again-button';
import { ListPageHeader } from '../../components/list-page-header';
import { SearchBox } from '../../components/search-box';
import { SmartPlaylistsSection } from './smart/smart-playlists.section';

/** My Playlists (SPEC 2): search by name or description, a grid of cards, Create Playlist. */
export function PlaylistsPage() {
  const t = useT();
  useDocumentTitle('playlistsTitle');
  const playlists = usePlaylists();
  const [search, setSearch] = useState('');
  const filtered = useMemo(() => filterPlaylists(playlists.data ?? [], search), [playlists.data, search]);

  const createButton = (
    <Button asChild>
      <Link to="/create-playlist">
        <Plus aria-hidden className="size-4" />
        {t('createPlaylist')}
      </Link>
    </Button>
  );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('playlistsTitle')} subtitle={t('playlistsSubtitle')} action={createButton} />

      <SearchBox className="mt-7" label={t('playlistsSearchLabel')} placeholder={t('playlistsSearchPlaceholder')} value={search} onChange={setSearch} />

      <section aria-label={t('playlistsTitle')} className="mt-6">
        {playlists.isPending ? (
          <div className="flex flex-col gap-6">
            <p role="status" className="flex items-center justify-center gap-3 text-sm text-muted">
              <Spinner className="size-5 text-accent" />
              {t('playlistsLoading')}
            </p>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: 6 }, (_, index) => (
                <Skeleton key={index} className="h-40 rounded-2xl" />
              ))}
            </div>
          </div>
        ) : playlists.isError ? (
          <StatusPanel
            role="alert"
            tone="danger"
            icon={<TriangleAlert aria-hidden />}
            title={t('playlistsErrorTitle')}
            actions={<TryAgainButton query={playlists} />}
          >
            {t('playlistsLoadFailed')}
          </StatusPanel>
        ) : playlists.data.length === 0 ? (
          <StatusPanel icon={<ListMusic aria-hidden />} title={t('playlistsEmptyTitle')} actions={createButton}>
            {t('playlistsEmptyBody')}
          </StatusPanel>
        ) : filtered.length === 0 ? (
          <StatusPanel
            icon={<SearchX aria-hidden />}
            title={t('playlistsNoMatchTitle')}
            actions={
              <Button variant="secondary" onClick={() => setSearch('')}>
                {t('clearSearch')}
              </Button>
            }
          >
            {t('playlistsNoMatchBody', { query: search.trim() })}
          </StatusPanel>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {filtered.map((playlist) => (
              <li key={playlist.id} className="min-w-0">
                <PlaylistCard playlist={playlist} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <SmartPlaylistsSection />
    </div>
  );
}
