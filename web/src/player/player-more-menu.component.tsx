import { Ellipsis, Repeat, Repeat1, Shuffle } from 'lucide-react';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { nextRepeatMode } from './play-queue';
import { PlayerSettingsPanel } from './player-settings-menu.component';
import { player, usePlayer } from './player.store';

// Important: the control's own text-muted would otherwise win in the stylesheet's order.
const toggledClass = 'text-fuchsia-300! hover:text-fuchsia-200!';

interface ToggleProps {
  className: string;
  /** Show the name beside the icon (the phone's More menu); the wide bar shows the icon only. */
  withLabel?: boolean;
}

/** Shuffle: every song once, in a random order, before any repeats (issue 30). */
export function ShuffleButton({ className, withLabel = false }: ToggleProps) {
  const t = useT();
  const shuffle = usePlayer((state) => state.shuffle);
  const many = usePlayer((state) => state.queue.length > 1);
  return (
    <button
      type="button"
      className={cn(className, shuffle && toggledClass)}
      aria-label={t('playerShuffle')}
      title={t('playerShuffle')}
      aria-pressed={shuffle}
      disabled={!many}
      onClick={() => player.setShuffle(!shuffle)}
    >
      <Shuffle aria-hidden />
      {withLabel ? <span aria-hidden>{t('playerShuffle')}</span> : null}
    </button>
  );
}

/** Repeat off → all → this song (issue 30). */
export function RepeatButton({ className, withLabel = false }: ToggleProps) {
  const t = useT();
  const repeat = usePlayer((state) => state.repeat);
  const label = t(repeat === 'one' ? 'playerRepeatOne' : repeat === 'all' ? 'playerRepeatAll' : 'playerRepeatOff');
  return (
    <button
      type="button"
      className={cn(className, repeat !== 'off' && toggledClass)}
      aria-label={label}
      title={label}
      onClick={() => player.setRepeat(nextRepeatMode(repeat))}
    >
      {repeat === 'one' ? <Repeat1 aria-hidden /> : <Repeat aria-hidden />}
      {withLabel ? <span aria-hidden>{label}</span> : null}
    </button>
  );
}

const menuToggleClass =
  'flex min-h-10 flex-1 cursor-pointer items-center justify-center gap-2 rounded-xl border border-border px-3 text-sm text-muted transition-colors outline-none hover:bg-white/5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-40 [&_svg]:size-4 [&_svg]:shrink-0';

/**
 * Below 640 px the bar has no room for Shuffle, Repeat and the settings button: this one button
 * (More) holds them, so a phone reaches everything a wide screen does (issue 37).
 */
export function PlayerMoreMenu({ triggerClassName }: { triggerClassName: string }) {
  const t = useT();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button type="button" className={triggerClassName} aria-label={t('playerMore')} title={t('playerMore')}>
          <Ellipsis aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent
        side="top"
        align="end"
        className="flex max-h-[calc(100dvh-9rem)] w-[min(20rem,calc(100vw-1.5rem))] flex-col gap-4 overflow-y-auto p-4"
        aria-label={t('playerMore')}
      >
        <div className="flex gap-2">
          <ShuffleButton className={menuToggleClass} withLabel />
          <RepeatButton className={menuToggleClass} withLabel />
        </div>
        <PlayerSettingsPanel />
      </PopoverContent>
    </Popover>
  );
}
