import { FileUp, Plus, Sparkles } from 'lucide-react';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useT, useTCount } from '../../../lib/i18n/i18n.store';
import { useImportSmartPlaylist, useSmartPlaylists } from './smart-playlists.queries';

/** The smart playlists on My Playlists: cards, New Smart Playlist, Import .nsp. */
export function SmartPlaylistsSection() {
  const t = useT();
  const countOf = useTCount();
  const navigate = useNavigate();
  const smart = useSmartPlaylists();
  const importFile = useImportSmartPlaylist();
  const fileInput = useRef<HTMLInputElement>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    importFile.mutate(text, {
      onSuccess: (imported) => {
        toast.success(t('smartImported', { name: imported.name }));
        void navigate(`/smart-playlists/${imported.id}`);
      },
    });
  };

  return (
    <section aria-labelledby="smart-playlists-title" className="mt-12 flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id="smart-playlists-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <Sparkles aria-hidden className="size-5 text-fuchsia-300" />
            {t('smartTitle')}
          </h2>
          <p className="text-sm text-muted">{t('smartSubtitle')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="secondary">
            <Link to="/smart-playlists/new">
              <Plus aria-hidden className="size-4" />
              {t('smartNew')}
            </Link>
          </Button>
          <Button variant="secondary" onClick={() => fileInput.current?.click()} disabled={importFile.isPending}>
            {importFile.isPending ? <Spinner /> : <FileUp aria-hidden className="size-4" />}
            {t('smartImport')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".nsp,application/json,text/plain"
            className="hidden"
            aria-label={t('smartImport')}
            onChange={(event) => {
              void onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </div>
      </div>
      {smart.isPending ? (
        <p role="status" className="flex items-center gap-3 text-sm text-muted">
          <Spinner className="size-5 text-accent" />
          {t('smartLoading')}
        </p>
      ) : smart.isError ? (
        <p role="alert" className="text-sm text-danger">
          {t('smartLoadFailed')}
        </p>
      ) : smart.data.length === 0 ? (
        <p className="text-sm text-muted">{t('smartEmpty')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {smart.data.map((playlist) => (
            <li key={playlist.id} className="min-w-0">
              <Card className="h-full min-w-0 p-0 transition hover:ring-accent/50">
                <Link to={`/smart-playlists/${playlist.id}`} className="flex h-full min-w-0 flex-col gap-2 p-5">
                  <span dir="auto" className="truncate text-lg font-semibold">
                    {playlist.name}
                  </span>
                  {playlist.comment ? (
                    <span dir="auto" className="line-clamp-2 text-sm text-muted">
                      {playlist.comment}
                    </span>
                  ) : null}
                  <span className="mt-auto text-sm text-subtle">
                    {countOf('smartSongCount', playlist.songCount)}
                    {playlist.source === 'preset' ? ` · ${t('smartPreset')}` : playlist.source === 'folder' ? ` · ${t('smartFromFolder')}` : ''}
                  </span>
                </Link>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
