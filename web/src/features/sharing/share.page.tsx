import { Link2Off, Music, UserRound, CalendarClock } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusPanel } from '../../components/status-panel';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { formatClockTime } from '../../lib/clock-time.format';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatLongDate } from '../../lib/short-date.format';
import { songHeadline } from '../../lib/song-headline';
import { useDocumentTitle } from '../../lib/use-document-title';
import { SharedSongPlayer } from './shared-song-player.component';
import { fetchSharedSong } from './sharing.api';
import { PageGlow } from '../../components/page-glow';

/** The public page a shared link opens (DECISIONS, sharing): plays one song without an account. */
export function SharePage() {
  const t = useT();
  const language = useLanguage();
  const { token = '' } = useParams();
  const shared = useQuery({
    queryKey: ['shared-song', token],
    queryFn: ({ signal }) => fetchSharedSong(token, signal),
    staleTime: 60_000,
  });
  useDocumentTitle('shareTitlePage', shared.data?.displayName);

  return (
    <div className="relative isolate flex flex-1 items-start justify-center px-4 pt-28 pb-16 sm:items-center sm:pt-32">
      <PageGlow className="top-16 h-[420px] max-w-3xl" />
      <Card className="w-full max-w-[440px] overflow-hidden">
        {shared.isPending ? (
          <p role="status" className="flex items-center justify-center gap-3 px-6 py-20 text-sm text-muted">
            <Spinner className="size-5 text-accent" />
            {t('shareLoading')}
          </p>
        ) : shared.isError ? (
          <StatusPanel
            as="h1"
            role="alert"
            tone="danger"
            icon={<Link2Off aria-hidden />}
            title={t('shareInvalidTitle')}
            actions={
              <Button asChild>
                <Link to="/">{t('backToHome')}</Link>
              </Button>
            }
          >
            {shared.error.message}
          </StatusPanel>
        ) : (
          <div className="flex flex-col">
            <div className="relative aspect-square w-full bg-gradient-to-br from-violet-900/60 via-surface-raised to-fuchsia-900/40">
              {shared.data.coverUrl ? (
                <img src={shared.data.coverUrl} alt="" className="absolute inset-0 size-full object-cover" />
              ) : (
                <Music aria-hidden className="absolute inset-0 m-auto size-1/3 text-fuchsia-200/70" />
              )}
            </div>
            <div className="flex flex-col gap-4 p-5 sm:p-6">
              <div className="flex flex-col gap-1">
                <h1 dir="auto" className="text-2xl font-bold tracking-tight text-balance rtl:text-right">
                  {songHeadline(shared.data)}
                </h1>
                <p dir="auto" className="text-sm text-muted rtl:text-right">
                  {[shared.data.artist, shared.data.album, shared.data.durationSeconds ? formatClockTime(shared.data.durationSeconds) : null]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
              </div>
              <SharedSongPlayer streamUrl={shared.data.streamUrl} title={shared.data.displayName} durationSeconds={shared.data.durationSeconds} />
              <div className="flex flex-col gap-1.5 border-t border-border pt-4 text-sm text-muted">
                <p className="flex items-center gap-2">
                  <UserRound aria-hidden className="size-4 text-fuchsia-300" />
                  {t('sharedBy', { name: shared.data.sharedBy })}
                </p>
                <p className="flex items-center gap-2">
                  <CalendarClock aria-hidden className="size-4 text-fuchsia-300" />
                  {t('shareExpires', { date: formatLongDate(shared.data.expiresAt, language) })}
                </p>
              </div>
              <Button asChild variant="secondary" className="mt-1">
                <Link to="/">{t('shareDiscover')}</Link>
              </Button>
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
