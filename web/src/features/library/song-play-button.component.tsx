import type { SongListEntry } from '@encore/common/library.contract';
import { Play, Square } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import type { QueuePages } from '../../player/player-state';
import { player, usePlayer } from '../../player/player.store';

interface SongPlayButtonProps {
  song: SongListEntry;
  /** The list next/previous will move within: the filtered list the song is shown in. */
  list: readonly SongListEntry[];
  /** When `list` is one page of a longer list: next/previous go on into the other pages. */
  pages?: QueuePages | undefined;
  className?: string;
}

/**
 * Plays the song in the player bar. On the song already selected it stops it and closes the
 * player (SPEC 4: clicking the song that is playing closes the player); the bar's own button is
 * the one that pauses.
 */
export function SongPlayButton({ song, list, pages, className }: SongPlayButtonProps) {
  const t = useT();
  const isCurrent = usePlayer((state) => state.current?.id === song.id);
  return (
    <button
      type="button"
      aria-label={isCurrent ? t('stopSong', { title: song.displayName }) : t('playSong', { title: song.displayName })}
      title={isCurrent ? t('playerClose') : t('playHint')}
      onClick={() => player.selectSong(list, song, pages ? { source: 'library', pages } : { source: 'library' })}
      className={cn(
        'relative z-10 grid shrink-0 cursor-pointer place-items-center rounded-full bg-accent-gradient text-white shadow-lg shadow-fuchsia-950/50 transition-[transform,opacity] outline-none hover:scale-105 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background active:scale-95',
        className,
      )}
    >
      {isCurrent ? <Square aria-hidden className="size-[34%] fill-current" /> : <Play aria-hidden className="size-[42%] translate-x-[6%] fill-current" />}
    </button>
  );
}

/** Three bouncing bars that mark the song that is playing. Decorative. */
export function NowPlayingBars({ playing, className }: { playing: boolean; className?: string }) {
  return (
    <span aria-hidden className={cn('flex h-3.5 items-end gap-0.5', className)}>
      {[0, 0.25, 0.5].map((delay) => (
        <span
          key={delay}
          className={cn('h-full w-[3px] origin-bottom rounded-full bg-fuchsia-300', playing ? 'animate-equalizer' : 'scale-y-50')}
          style={{ animationDelay: `${delay}s` }}
        />
      ))}
    </span>
  );
}
