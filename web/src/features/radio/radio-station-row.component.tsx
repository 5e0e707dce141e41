import type { RadioStation } from '@encore/common/radio.contract';
import { ExternalLink, Pencil, Play, Radio, Square, Trash2 } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { useNowPlaying } from './use-now-playing';

interface RadioStationRowProps {
  station: RadioStation;
  playing: boolean;
  canManage: boolean;
  onPlay: () => void;
  onStop: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One station: play/stop, its name and home page, what it plays now (while playing), and the admin's edit and delete. */
export function RadioStationRow({ station, playing, canManage, onPlay, onStop, onEdit, onDelete }: RadioStationRowProps) {
  const t = useT();
  const nowPlaying = useNowPlaying(station.id, playing);
  const title = playing ? nowPlaying.data?.title : undefined;
  return (
    <article
      aria-label={station.name}
      className={cn(
        'flex items-center gap-3 rounded-xl border bg-surface/70 p-3 sm:p-4',
        playing ? 'border-accent/60 shadow-lg shadow-fuchsia-900/20' : 'border-border',
      )}
    >
      <Button
        size="icon"
        variant={playing ? 'primary' : 'secondary'}
        aria-label={playing ? t('radioStop', { name: station.name }) : t('radioPlay', { name: station.name })}
        aria-pressed={playing}
        onClick={playing ? onStop : onPlay}
      >
        {playing ? <Square aria-hidden className="size-4 fill-current" /> : <Play aria-hidden className="size-4 fill-current rtl:-scale-x-100" />}
      </Button>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h2 className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold">
          <Radio aria-hidden className="hidden size-4 shrink-0 text-fuchsia-300 sm:block" />
          <bdi className="min-w-0 break-words">{station.name}</bdi>
          {playing ? (
            <span className="shrink-0 rounded-full bg-danger/15 px-2 py-0.5 text-[0.7rem] font-semibold tracking-wide text-danger uppercase">
              {t('radioLive')}
            </span>
          ) : null}
        </h2>
        {playing ? (
          <p className="text-sm break-words text-muted" aria-live="polite" data-testid="radio-now-playing">
            {title ? t('radioNowPlaying', { title }) : nowPlaying.isSuccess ? t('radioNoTitle') : null}
          </p>
        ) : null}
        {station.homepageUrl ? (
          <a
            href={station.homepageUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('radioHomepageOf', { name: station.name })}
            className="inline-flex w-fit items-center gap-1 rounded text-xs text-accent underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {t('radioHomepage')}
            <ExternalLink aria-hidden className="size-3 rtl:-scale-x-100" />
          </a>
        ) : null}
      </div>
      {canManage ? (
        <div className="flex shrink-0 items-center gap-1">
          <Button size="icon" variant="ghost" aria-label={t('radioEditStation', { name: station.name })} onClick={onEdit}>
            <Pencil aria-hidden className="size-4" />
          </Button>
          <Button size="icon" variant="ghost" aria-label={t('radioDeleteStation', { name: station.name })} onClick={onDelete} className="hover:text-danger">
            <Trash2 aria-hidden className="size-4" />
          </Button>
        </div>
      ) : null}
    </article>
  );
}
