import type { SmartPlaylist } from '@encore/common/smart-playlist.contract';
import { useMutation } from '@tanstack/react-query';
import { FileDown, Pencil, Play, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { BackLink } from '../../../components/back-link';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button';
import { DetailQueryView } from '../../../components/detail-query-view';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { formatClockTime } from '../../../lib/clock-time.format';
import { useT, useTCount } from '../../../lib/i18n/i18n.store';
import { saveBlob } from '../../../lib/save-blob';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { player, usePlayer } from '../../../player/player.store';
import { fetchSmartExport } from './smart-playlists.api';
import { useDeleteSmartPlaylist, useSmartPlaylist, useSmartSongs } from './smart-playlists.queries';

const PAGE = 100;
const smartSource = (id: number) => `smart-playlist:${id}`;

/** /smart-playlists/{id}: the songs that match now, playable, exportable; edit and delete. */
export function SmartPlaylistPage() {
  const t = useT();
  const id = Number(useParams().id);
  const smart = useSmartPlaylist(id);
  useDocumentTitle('smartEyebrow', smart.data?.name);
  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <DetailQueryView
        query={smart}
        loadingText={t('smartLoading')}
        notFoundTitle={t('smartNotFoundTitle')}
        notFoundBody={t('smartNotFoundBody')}
        errorTitle={t('smartErrorTitle')}
        back={
          <Button asChild variant="secondary">
            <Link to="/playlists">{t('smartBack')}</Link>
          </Button>
        }
      >
        {(data) => <SmartPlaylistDetail smart={data} />}
      </DetailQueryView>
    </div>
  );
}

function SmartPlaylistDetail({ smart }: { smart: SmartPlaylist }) {
  const t = useT();
  const countOf = useTCount();
  const navigate = useNavigate();
  const [limit, setLimit] = useState(PAGE);
  const songs = useSmartSongs(smart.id, limit);
  const remove = useDeleteSmartPlaylist();
  const source = smartSource(smart.id);
  const currentId = usePlayer((state) => (state.source === source ? (state.current?.id ?? null) : null));
  const list = songs.data?.songs ?? [];
  const total = songs.data?.total ?? smart.songCount;
  const exportAs = useMutation({
    mutationFn: (format: 'nsp' | 'm3u8') => fetchSmartExport(smart.id, format),
    meta: { errorToast: { fallback: t('smartExportFailed') } },
    onSuccess: ({ blob, fileName }, format) => saveBlob(blob, fileName ?? `${smart.name}.${format}`),
  });

  const playFrom = (index: number) => {
    if (list.length === 0) return;
    player.playQueue(list, index, { wrap: false, skipUnplayable: true, source });
  };

  return (
    <article className="flex min-w-0 flex-col gap-6">
      <BackLink to="/playlists">{t('smartBack')}</BackLink>
      <Card className="flex min-w-0 flex-col gap-5 p-5 sm:p-7">
        <header className="flex min-w-0 flex-col gap-2">
          <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.2em] text-fuchsia-300 uppercase rtl:tracking-normal">
            <Sparkles aria-hidden className="size-4" />
            {t('smartEyebrow')}
          </p>
          <h1 dir="auto" className="text-3xl font-extrabold tracking-tight break-words sm:text-4xl">
            {smart.name}
          </h1>
          {smart.comment ? (
            <p dir="auto" className="break-words text-muted">
              {smart.comment}
            </p>
          ) : null}
          <p data-testid="smart-song-count" className="text-sm text-muted">
            {countOf('smartSongCount', total)}
            {smart.source === 'folder' ? ` · ${t('smartFromFolder')}` : ''}
          </p>
        </header>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => playFrom(0)} disabled={list.length === 0}>
            <Play aria-hidden className="size-4" />
            {t('smartPlayAll')}
          </Button>
          {smart.source !== 'folder' ? (
            <Button asChild variant="secondary">
              <Link to={`/smart-playlists/${smart.id}/edit`}>
                <Pencil aria-hidden className="size-4" />
                {t('smartEdit')}
              </Link>
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => exportAs.mutate('nsp')} disabled={exportAs.isPending}>
            <FileDown aria-hidden className="size-4" />
            {t('smartExportNsp')}
          </Button>
          <Button variant="secondary" onClick={() => exportAs.mutate('m3u8')} disabled={exportAs.isPending}>
            <FileDown aria-hidden className="size-4" />
            {t('smartExportM3u8')}
          </Button>
          <ConfirmDeleteButton
            label={t('smartDelete')}
            title={t('smartDelete')}
            description={t('smartDeleteConfirm', { name: smart.name })}
            confirmLabel={t('smartDelete')}
            pending={remove.isPending}
            onConfirm={(close) =>
              remove.mutate(smart.id, {
                onSuccess: () => {
                  close();
                  if (player.getState().source === source) player.close();
                  toast.success(t('smartDeleted'));
                  void navigate('/playlists', { replace: true });
                },
              })
            }
          />
        </div>
      </Card>
      {songs.isPending ? (
        <p role="status" className="flex items-center gap-3 text-sm text-muted">
          <Spinner className="size-5 text-accent" />
          {t('smartLoading')}
        </p>
      ) : list.length === 0 ? (
        <p className="text-muted">{t('smartNoSongs')}</p>
      ) : (
        <ol aria-label={smart.name} className="flex min-w-0 flex-col gap-1">
          {list.map((song, index) => (
            <li key={song.id} className="min-w-0">
              <button
                type="button"
                onClick={() => playFrom(index)}
                aria-current={currentId === song.id ? 'true' : undefined}
                className="flex w-full min-w-0 items-center gap-3 rounded-xl px-3 py-2 text-start hover:bg-white/5 aria-[current]:bg-fuchsia-500/10"
              >
                <span className="w-8 shrink-0 text-end text-sm text-subtle tabular-nums">{index + 1}</span>
                <span className="flex min-w-0 flex-1 flex-col">
                  <span dir="auto" className="truncate font-medium">
                    {song.title ?? song.displayName}
                  </span>
                  <span dir="auto" className="truncate text-sm text-muted">
                    {[song.artist, song.album].filter(Boolean).join(' · ')}
                  </span>
                </span>
                {song.durationSeconds !== null ? (
                  <span className="shrink-0 text-sm text-subtle tabular-nums">{formatClockTime(song.durationSeconds)}</span>
                ) : null}
              </button>
            </li>
          ))}
        </ol>
      )}
      {list.length < total ? (
        <Button variant="secondary" className="self-center" onClick={() => setLimit((current) => current + PAGE)}>
          {t('smartMoreSongs')}
        </Button>
      ) : null}
    </article>
  );
}
