import { SEEK_STEP_SECONDS } from '@encore/common/constants';
import { Pause, Play, SkipBack, SkipForward, Volume1, Volume2, VolumeX, X } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'react-router';
import { CoverArt } from '../components/cover-art';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { Slider } from '../components/ui/slider';
import { Spinner } from '../components/ui/spinner';
import { formatClockTime } from '../lib/clock-time.format';
import { cn } from '../lib/cn';
import { formatFileSize } from '../lib/file-size.format';
import { useLanguage, useT } from '../lib/i18n/i18n.store';
import { formatShortDate } from '../lib/short-date.format';
import { songHeadline } from '../lib/song-headline';
import { hasNext, hasPrevious, PLAYER_BAR_HEIGHT_VAR } from './player-state';
import { PlayerMoreMenu, RepeatButton, ShuffleButton } from './player-more-menu.component';
import { PlayerSettingsMenu } from './player-settings-menu.component';
import { player, usePlayer } from './player.store';
import { QueuePanel } from './queue-panel.component';
import { useMediaSession } from './use-media-session';
import { usePlayerKeyboard } from './use-player-keyboard';

export const controlClass =
  'grid size-10 shrink-0 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent [&_svg]:size-5';

/** Publishes the bar's height (PLAYER_BAR_HEIGHT_VAR) while it is in the page: a ref callback. */
function publishHeight(bar: HTMLElement | null): (() => void) | undefined {
  if (!bar) return undefined;
  const root = document.documentElement;
  const update = () => root.style.setProperty(PLAYER_BAR_HEIGHT_VAR, `${bar.offsetHeight}px`);
  update();
  const observer = new ResizeObserver(update);
  observer.observe(bar);
  return () => {
    observer.disconnect();
    root.style.removeProperty(PLAYER_BAR_HEIGHT_VAR);
  };
}

/**
 * The player bar (SPEC 2 and 4): fixed at the bottom while a song is selected. Mounted once in
 * the layout, so it, and the music, stay while the user moves between pages. The song shows
 * its title over its artist, as the cards do, and its size and upload date beneath (SPEC 2,
 * DECISIONS "Player bar"). On a phone the song takes the whole first line and the transport
 * shares the second with the seek bar; the volume folds away (the phone's own buttons set it),
 * and Shuffle, Repeat and the player settings move into the bar's More menu (issue 37).
 */
export function PlayerBar() {
  const t = useT();
  const language = useLanguage();
  const current = usePlayer((state) => state.current);
  const ready = usePlayer((state) => state.ready);
  const loading = usePlayer((state) => state.loading);
  const isPlaying = usePlayer((state) => state.isPlaying);
  const canNext = usePlayer(hasNext);
  const canPrevious = usePlayer(hasPrevious);
  usePlayerKeyboard(current !== null);
  useMediaSession();

  if (!current) return null;

  return (
    <section
      ref={publishHeight}
      role="region"
      aria-label={t('playerRegion')}
      className="fixed inset-x-0 bottom-0 z-40 animate-slide-up border-t border-border bg-surface shadow-[0_-12px_40px_rgba(0,0,0,0.45)]"
    >
      <div className="mx-auto grid max-w-6xl grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1.5 px-3 pt-2.5 pb-2 [grid-template-areas:'info_info_side'_'transport_seek_seek'] sm:px-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)_minmax(0,1fr)] md:gap-x-6 md:py-2.5 md:[grid-template-areas:'info_transport_side'_'info_seek_side']">
        <div className="flex min-w-0 items-center gap-2.5 [grid-area:info] sm:gap-3">
          <CoverArt fileKey={current.hasCover ? current.s3Key : null} size="thumb" className="size-11 rounded-lg ring-1 ring-white/10 md:size-13" />
          <div className="min-w-0">
            <Link
              to={`/music/${current.id}`}
              dir="auto"
              data-testid="player-title"
              aria-label={current.displayName}
              className="block truncate text-sm font-semibold outline-none hover:underline focus-visible:underline rtl:text-right"
              title={current.displayName}
            >
              {songHeadline(current)}
            </Link>
            <p dir="auto" data-testid="player-artist" className="truncate text-xs text-muted rtl:text-right">
              {current.artist ?? t('unknownArtist')}
            </p>
            <p data-testid="player-details" className="truncate text-[11px] leading-4 text-muted tabular-nums">
              <bdi dir="ltr">{formatFileSize(current.size)}</bdi> · <time dateTime={current.uploadedAt}>{formatShortDate(current.uploadedAt, language)}</time>
            </p>
          </div>
        </div>

        <div dir="ltr" className="flex items-center gap-0.5 [grid-area:transport] md:justify-self-center md:gap-3">
          <TransportButtons ready={ready} loading={loading} isPlaying={isPlaying} canNext={canNext} canPrevious={canPrevious} />
        </div>

        <div className="min-w-0 [grid-area:seek]">
          <SeekRow />
        </div>

        {/* On a phone the three buttons are a little smaller, so a long title keeps its first words. */}
        <div className="flex items-center justify-end gap-0.5 [grid-area:side] sm:gap-1">
          <QueuePanel triggerClassName={cn(controlClass, 'size-8 sm:size-9')} />
          <PlayerSettingsMenu triggerClassName={cn(controlClass, 'hidden size-9 sm:grid')} />
          <PlayerMoreMenu triggerClassName={cn(controlClass, 'size-8 sm:hidden')} />
          <VolumeControl />
          <button
            type="button"
            className={cn(controlClass, 'size-8 sm:size-9 md:size-10')}
            aria-label={t('playerClose')}
            title={t('playerClose')}
            onClick={() => player.close()}
          >
            <X aria-hidden />
          </button>
        </div>
      </div>
    </section>
  );
}

interface TransportProps {
  ready: boolean;
  loading: boolean;
  isPlaying: boolean;
  canNext: boolean;
  canPrevious: boolean;
}

/** Previous, play/pause, next. Always all three, so nothing moves; a missing neighbour is disabled. */
function TransportButtons({ ready, loading, isPlaying, canNext, canPrevious }: TransportProps) {
  const t = useT();
  return (
    <>
      <ShuffleButton className={cn(controlClass, 'hidden size-9 sm:grid [&_svg]:size-4')} />
      <button
        type="button"
        className={cn(controlClass, 'size-9 md:size-10')}
        aria-label={t('playerPrevious')}
        title={t('playerPrevious')}
        disabled={!ready || !canPrevious}
        onClick={() => player.previous()}
      >
        <SkipBack aria-hidden className="fill-current" />
      </button>
      <button
        type="button"
        aria-label={isPlaying ? t('playerPause') : t('playerPlay')}
        title={isPlaying ? t('playerPause') : t('playerPlay')}
        disabled={!ready}
        onClick={() => player.toggle()}
        className={cn(
          'grid size-10 shrink-0 cursor-pointer place-items-center rounded-full bg-white text-background shadow-lg transition-transform outline-none hover:scale-105 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-surface disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:scale-100 md:size-11',
        )}
      >
        {loading && !ready ? (
          <Spinner className="size-5" />
        ) : isPlaying ? (
          <Pause aria-hidden className="size-5 fill-current" />
        ) : (
          <Play aria-hidden className="size-5 translate-x-px fill-current" />
        )}
      </button>
      <button
        type="button"
        className={cn(controlClass, 'size-9 md:size-10')}
        aria-label={t('playerNext')}
        title={t('playerNext')}
        disabled={!ready || !canNext}
        onClick={() => player.next()}
      >
        <SkipForward aria-hidden className="fill-current" />
      </button>
      <RepeatButton className={cn(controlClass, 'hidden size-9 sm:grid [&_svg]:size-4')} />
    </>
  );
}

function SeekRow() {
  const t = useT();
  const ready = usePlayer((state) => state.ready);
  const currentTime = usePlayer((state) => state.currentTime);
  const duration = usePlayer((state) => state.duration);
  const elapsed = formatClockTime(currentTime);
  const total = formatClockTime(duration);
  return (
    // Playback time runs left to right in every language, like the tape it stands for.
    <div dir="ltr" className="flex w-full items-center gap-2.5 text-xs text-muted tabular-nums">
      <span data-testid="player-elapsed" className="w-10 shrink-0 text-end">
        {elapsed}
      </span>
      <Slider
        dir="ltr"
        aria-label={t('playerSeek')}
        aria-valuetext={t('playerSeekValue', { elapsed, total })}
        value={currentTime}
        max={duration}
        step={SEEK_STEP_SECONDS}
        disabled={!ready}
        onValueChange={(value) => player.seek(value)}
      />
      <span data-testid="player-duration" className="w-10 shrink-0">
        {total}
      </span>
    </div>
  );
}

function VolumeControl() {
  const t = useT();
  const volume = usePlayer((state) => state.volume);
  const beforeMute = useRef(volume);
  const Icon = volume === 0 ? VolumeX : volume < 0.5 ? Volume1 : Volume2;
  const toggleMute = () => {
    if (volume > 0) {
      beforeMute.current = volume;
      player.setVolume(0);
    } else {
      player.setVolume(beforeMute.current || 0.8);
    }
  };
  const slider = (
    <Slider
      dir="ltr"
      aria-label={t('playerVolume')}
      aria-valuetext={`${Math.round(volume * 100)}%`}
      value={volume}
      max={1}
      step={0.01}
      onValueChange={(value) => player.setVolume(value)}
    />
  );
  return (
    <>
      <div dir="ltr" className="hidden w-36 items-center gap-1 md:flex">
        <button type="button" className={cn(controlClass, 'size-9')} aria-label={volume === 0 ? t('playerUnmute') : t('playerMute')} onClick={toggleMute}>
          <Icon aria-hidden />
        </button>
        {slider}
      </div>
      <Popover>
        <PopoverTrigger asChild>
          <button type="button" className={cn(controlClass, 'hidden size-9 sm:grid md:hidden')} aria-label={t('playerVolume')}>
            <Icon aria-hidden />
          </button>
        </PopoverTrigger>
        <PopoverContent side="top" align="end" dir="ltr" className="flex w-48 items-center gap-2 p-3">
          <button type="button" className={cn(controlClass, 'size-8')} aria-label={volume === 0 ? t('playerUnmute') : t('playerMute')} onClick={toggleMute}>
            <Icon aria-hidden />
          </button>
          {slider}
        </PopoverContent>
      </Popover>
    </>
  );
}
