import type { SongListEntry } from '@encore/common/library.contract';
import { ListEnd, ListPlus, MoreHorizontal } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../components/ui/dropdown-menu';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { player } from './player.store';

/**
 * A song's queue menu (issue 30): Play next, Add to queue. Any list of songs can show it. A
 * page shows many: the menu itself is built at the first use of its button, not with the page.
 */
export function SongQueueMenu({ song, className }: { song: SongListEntry; className?: string }) {
  const t = useT();
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const label = t('songQueueMenu', { title: song.displayName });
  const buttonClass = cn(
    'relative z-10 grid size-8 shrink-0 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-white/10 [&_svg]:size-4',
    className,
  );
  if (!armed) {
    const arm = () => {
      setArmed(true);
      setOpen(true);
    };
    return (
      <button
        type="button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={false}
        className={buttonClass}
        onClick={arm}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            arm();
          }
        }}
      >
        <MoreHorizontal aria-hidden />
      </button>
    );
  }
  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger asChild>
        <button type="button" aria-label={label} title={label} className={buttonClass}>
          <MoreHorizontal aria-hidden />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <SongQueueMenuItems song={song} />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Play next and Add to queue, for a song menu of any list (a playlist's rows add them to theirs). */
export function SongQueueMenuItems({ song }: { song: SongListEntry }) {
  const t = useT();
  return (
    <>
      <DropdownMenuItem
        onSelect={() => {
          player.addNext([song]);
          toast.success(t('queueAddedNext', { title: song.displayName }));
        }}
      >
        <ListPlus aria-hidden />
        {t('songPlayNext')}
      </DropdownMenuItem>
      <DropdownMenuItem
        onSelect={() => {
          player.addToQueue([song]);
          toast.success(t('queueAddedLast', { title: song.displayName }));
        }}
      >
        <ListEnd aria-hidden />
        {t('songAddToQueue')}
      </DropdownMenuItem>
    </>
  );
}
