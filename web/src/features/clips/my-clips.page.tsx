import { VIDEO_QUALITY_LABELS, type ClipSummary } from '@encore/common/clips.contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Clapperboard, Download, Play, Plus, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDeleteButton } from '../../components/confirm-delete-button';
import { ListPageHeader } from '../../components/list-page-header';
import { StatusPanel } from '../../components/status-panel';
import { TryAgainButton } from '../../components/try-again-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Spinner } from '../../components/ui/spinner';
import { formatClockTime } from '../../lib/clock-time.format';
import { formatFileSize } from '../../lib/file-size.format';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatShortDate } from '../../lib/short-date.format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { deleteClip, fetchMyClips, MY_CLIPS_QUERY_KEY } from './clips.api';
/** While a clip renders, the list looks again this often (a clip's own page follows its task live). */
const RENDERING_POLL_MS = 3000;

/** My clips: the caller's past clips, newest first, to play, download and delete. */
export function MyClipsPage() {
  const t = useT();
  useDocumentTitle('myClipsTitle');
  const clips = useQuery({
    queryKey: MY_CLIPS_QUERY_KEY,
    queryFn: ({ signal }) => fetchMyClips(signal),
    refetchInterval: (query) => (query.state.data?.some((clip) => clip.status === 'queued' || clip.status === 'running') ? RENDERING_POLL_MS : false),
  });

  const newClip = (
    <Button asChild>
      <Link to="/song2clip">
        <Plus aria-hidden className="size-4" />
        {t('myClipsNew')}
      </Link>
    </Button>
  );

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('myClipsTitle')} subtitle={t('myClipsSubtitle')} action={newClip} />

      <section aria-label={t('myClipsTitle')} className="mt-8">
        {clips.isPending ? (
          <div role="status" aria-label={t('myClipsLoading')} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-64 rounded-2xl" />
            ))}
          </div>
        ) : clips.isError ? (
          <StatusPanel role="alert" tone="danger" icon={<TriangleAlert aria-hidden />} title={t('clipListFailed')} actions={<TryAgainButton query={clips} />} />
        ) : clips.data.length === 0 ? (
          <StatusPanel icon={<Clapperboard aria-hidden />} title={t('myClipsEmptyTitle')} actions={newClip}>
            {t('myClipsEmptyBody')}
          </StatusPanel>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {clips.data.map((clip) => (
              <li key={clip.id}>
                <ClipCard clip={clip} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function ClipCard({ clip }: { clip: ClipSummary }) {
  const t = useT();
  const language = useLanguage();
  const [playing, setPlaying] = useState(false);
  const title = clip.songTitle ?? t('myClipsSongGone');
  const facts = [
    `${clip.format.toUpperCase()} · ${VIDEO_QUALITY_LABELS[clip.quality]} · ${clip.aspectRatio}`,
    clip.durationSeconds !== null ? formatClockTime(clip.durationSeconds) : null,
    clip.sizeBytes !== null ? formatFileSize(clip.sizeBytes) : null,
  ].filter((fact) => fact !== null);

  return (
    <Card className="flex h-full flex-col gap-3 overflow-hidden p-3" data-testid="my-clip">
      <div className="grid aspect-video place-items-center overflow-hidden rounded-xl bg-black/60 ring-1 ring-border">
        {clip.status === 'done' && clip.videoUrl ? (
          playing ? (
            <video src={clip.videoUrl} controls autoPlay playsInline className="size-full bg-black object-contain" aria-label={t('myClipsVideo', { title })} />
          ) : (
            <>
              <ClipThumbnail videoUrl={clip.videoUrl} durationSeconds={clip.durationSeconds} />
              <Button variant="secondary" className="[grid-area:1/1]" onClick={() => setPlaying(true)} aria-label={t('myClipsPlay', { title })}>
                <Play aria-hidden className="size-4 rtl:rotate-180" />
                {t('myClipsPlayShort')}
              </Button>
            </>
          )
        ) : clip.status === 'queued' || clip.status === 'running' ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted">
            <Spinner className="size-4 text-accent" />
            {t('myClipsRendering')}
          </p>
        ) : (
          <p className="px-4 text-center text-sm text-danger">{clip.status === 'cancelled' ? t('myClipsCancelled') : (clip.error ?? t('myClipsFailed'))}</p>
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-1 px-1">
        <div className="flex items-center justify-between gap-2">
          <h2 className="truncate font-semibold" title={title}>
            {title}
          </h2>
          <Badge>{formatShortDate(clip.createdAt, language)}</Badge>
        </div>
        <p className="text-xs text-muted" dir="ltr">
          {facts.join(' · ')}
        </p>
      </div>
      <div className="mt-auto flex flex-wrap gap-2 px-1 pb-1">
        {clip.downloadUrl ? (
          <Button asChild variant="secondary">
            <a href={clip.downloadUrl} download aria-label={t('myClipsDownload', { title })}>
              <Download aria-hidden className="size-4" />
              {t('clipDownload')}
            </a>
          </Button>
        ) : null}
        <DeleteClipButton clip={clip} title={title} />
      </div>
    </Card>
  );
}

/**
 * The clip's picture behind its Play button (issue 37: the cards were black). A clip opens on a
 * fade from black, so the picture is taken from its middle (a media fragment, `#t=`), where the
 * words and pictures are shown; the browser loads only what that frame needs.
 */
export function thumbnailTime(durationSeconds: number | null): number {
  return durationSeconds !== null && durationSeconds > 0 ? Math.round((durationSeconds / 2) * 10) / 10 : 1;
}

function ClipThumbnail({ videoUrl, durationSeconds }: { videoUrl: string; durationSeconds: number | null }) {
  return (
    <video
      src={`${videoUrl}#t=${thumbnailTime(durationSeconds)}`}
      preload="metadata"
      muted
      playsInline
      aria-hidden
      tabIndex={-1}
      data-testid="my-clip-thumbnail"
      className="pointer-events-none size-full object-cover opacity-80 [grid-area:1/1]"
    />
  );
}

function DeleteClipButton({ clip, title }: { clip: ClipSummary; title: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteClip(clip.id),
    meta: { errorToast: { fallback: t('myClipsDeleteFailed') } },
    onSuccess: () => {
      queryClient.setQueryData<ClipSummary[]>(MY_CLIPS_QUERY_KEY, (clips) => clips?.filter((other) => other.id !== clip.id));
      void queryClient.invalidateQueries({ queryKey: MY_CLIPS_QUERY_KEY });
      toast.success(t('myClipsDeleted'));
    },
  });
  return (
    <ConfirmDeleteButton
      label={t('myClipsDelete')}
      title={t('myClipsDeleteTitle')}
      description={t('myClipsDeleteBody', { title })}
      confirmLabel={t('myClipsDelete')}
      pending={remove.isPending}
      onConfirm={(close) => remove.mutate(undefined, { onSuccess: close })}
    />
  );
}
