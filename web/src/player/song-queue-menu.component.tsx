import type { SongListEntry } from '@encore/common/library.contract';
import { ListEnd, ListPlus, MoreHorizontal } from 'lucide-react';
import { toast } from 'sonner';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../components/ui/dropdown-menu';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { player } from './player.store';

/** A song's queue menu (issue 30): Play next, Add to queue. Any list of songs can show it. */
export function SongQueueMenu({ song, className }: { song: SongListEntry; className?: string }) {
  const t = useT();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          aria-label={t('songQueueMenu', { title: song.displayName })}
          title={t('songQueueMenu', { title: song.displayName })}
          className={cn(
            'relative z-10 grid size-8 shrink-0 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-white/10 [&_svg]:size-4',
            className,
          )}
        >
          <MoreHorizontal aria-hidden />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
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
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
