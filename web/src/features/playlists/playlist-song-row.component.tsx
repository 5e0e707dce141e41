import type { SongListEntry } from '@encore/common/library.contract';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { AudioLines, Ellipsis, GripVertical, ListX } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { CoverArt } from '../../components/cover-art';
import { SongCredits } from '../../components/song-credits';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { formatClockTime } from '../../lib/clock-time.format';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { songHeadline } from '../../lib/song-headline';
import { SongQueueMenuItems } from '../../player/song-queue-menu.component';

interface PlaylistSongRowProps {
  song: SongListEntry;
  position: number;
  isCurrent: boolean;
  isPlaying: boolean;
  /** Moves this row by `delta` places (the handle's arrow keys). */
  onMove: (delta: number) => void;
  onRemove: () => void;
  removing: boolean;
  handleRef: (element: HTMLButtonElement | null) => void;
  hintId: string;
}

/** One row: a drag handle (pointer, or ArrowUp/ArrowDown), the song, and a menu with 'Remove from playlist'. */
export function PlaylistSongRow({ song, position, isCurrent, isPlaying, onMove, onRemove, removing, handleRef, hintId }: PlaylistSongRowProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: song.id });

  const onHandleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const delta = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    onMove(delta);
  };

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="playlist-song"
      className={cn(
        'group relative grid grid-cols-[auto_auto_minmax(0,1fr)_auto_auto] items-center gap-2.5 rounded-xl px-1.5 py-2 transition-colors hover:bg-white/[0.04] focus-within:bg-white/[0.04] sm:grid-cols-[auto_1.75rem_auto_minmax(0,1fr)_auto_auto] sm:gap-3 sm:px-3',
        isCurrent && 'bg-accent/10 hover:bg-accent/15',
        isDragging && 'z-10 bg-surface-raised shadow-2xl shadow-black/60 ring-1 ring-accent/50',
        removing && 'opacity-50',
      )}
    >
      <button
        ref={(element) => {
          setActivatorNodeRef(element);
          handleRef(element);
        }}
        type="button"
        {...attributes}
        {...listeners}
        aria-label={t('reorderHandle', { title: song.displayName })}
        aria-describedby={hintId}
        onKeyDown={onHandleKeyDown}
        className="grid size-8 cursor-grab touch-none place-items-center rounded-lg text-subtle transition-colors outline-none hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
      >
        <GripVertical aria-hidden className="size-4" />
      </button>
      {/* Phones leave the number out: the rows' order says it, and the title needs the room. */}
      <span aria-hidden className="hidden text-center text-sm text-subtle tabular-nums sm:block">
        {isCurrent ? <AudioLines className={cn('mx-auto size-4 text-fuchsia-300', isPlaying && 'animate-pulse')} /> : position}
      </span>
      <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="size-10 rounded-lg" />
      <div className="min-w-0">
        <p className="line-clamp-2 text-sm font-semibold break-words sm:line-clamp-1" title={song.displayName}>
          {isCurrent ? (
            <span className="me-1.5 inline-flex align-[-0.15em] text-fuchsia-300 sm:hidden">
              <AudioLines aria-hidden className={cn('size-4', isPlaying && 'animate-pulse')} />
            </span>
          ) : null}
          {isCurrent ? <span className="sr-only">{t('nowPlaying')} </span> : null}
          <Link to={`/music/${song.id}`} className="rounded outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring">
            <bdi>{songHeadline(song)}</bdi>
          </Link>
        </p>
        <SongCredits song={song} withAlbum className="text-xs text-muted" />
      </div>
      <span className="text-end text-xs text-muted tabular-nums sm:text-sm">{song.durationSeconds !== null ? formatClockTime(song.durationSeconds) : ''}</span>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label={t('songMenuLabel', { title: song.displayName })}
          className="grid size-9 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-white/10"
        >
          <Ellipsis aria-hidden className="size-5" />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <SongQueueMenuItems song={song} />
          <DropdownMenuItem tone="danger" disabled={removing} onSelect={onRemove}>
            <ListX aria-hidden />
            {t('removeFromPlaylist')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}
