import type { SongListEntry } from '@encore/common/library.contract';
import { closestCenter, DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent, type Modifier } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronDown, ChevronUp, GripVertical, ListMusic, Trash2, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CoverArt } from '../components/cover-art';
import { Button } from '../components/ui/button';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Dialog, DialogDescription, DialogTitle, DialogTrigger } from '../components/ui/dialog';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { songHeadline } from '../lib/song-headline';
import { player, usePlayer } from './player.store';

/** Our own live region says where a song went; dnd-kit's stays quiet rather than speak ids. */
const quiet = { onDragStart: () => undefined, onDragOver: () => undefined, onDragEnd: () => undefined, onDragCancel: () => undefined };
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

const iconButton =
  'grid size-8 shrink-0 cursor-pointer place-items-center rounded-full text-muted transition-colors outline-none hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-30 [&_svg]:size-4';

/** The queue button of the player bar and the panel it opens (issue 30). */
export function QueuePanel({ triggerClassName }: { triggerClassName: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <button type="button" className={triggerClassName} aria-label={t('playerQueue')} title={t('playerQueue')} aria-haspopup="dialog">
          <ListMusic aria-hidden />
        </button>
      </DialogTrigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 data-[state=open]:animate-fade-in" />
        {/* A sheet above the player bar, at the side, so the bar and the song stay in sight. */}
        <DialogPrimitive.Content className="fixed end-3 bottom-24 z-50 flex max-h-[calc(100dvh-8rem)] w-[min(28rem,calc(100vw-1.5rem))] flex-col gap-4 rounded-(--radius-card) border border-border bg-surface p-5 shadow-2xl shadow-black/60 outline-none data-[state=open]:animate-fade-in sm:end-6">
          <div className="flex flex-col gap-1 pe-8 text-start">
            <DialogTitle>{t('queueTitle')}</DialogTitle>
            <DialogDescription>{t('queueDescription')}</DialogDescription>
          </div>
          {open ? <QueueList /> : null}
          <DialogPrimitive.Close
            aria-label={t('close')}
            className="absolute end-4 top-4 grid size-8 cursor-pointer place-items-center rounded-full text-muted transition-colors hover:bg-white/10 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <X aria-hidden className="size-4" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </Dialog>
  );
}

function QueueList() {
  const t = useT();
  const queue = usePlayer((state) => state.queue);
  const index = usePlayer((state) => state.index);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const [announcement, setAnnouncement] = useState('');
  const currentRow = useRef<HTMLLIElement | null>(null);
  const handles = useRef(new Map<number, HTMLButtonElement>());
  const focusAfterMove = useRef<number | null>(null);

  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  useLayoutEffect(() => {
    if (focusAfterMove.current === null) return;
    handles.current.get(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  }, [queue]);

  const move = (from: number, to: number, keepFocus = false) => {
    const song = queue[from];
    if (!song || to < 0 || to >= queue.length || from === to) return;
    player.moveInQueue(from, to);
    if (keepFocus) focusAfterMove.current = to;
    setAnnouncement(t('queueMovedTo', { title: song.displayName, position: String(to + 1), total: String(queue.length) }));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(Number(String(active.id).slice(1)), Number(String(over.id).slice(1)));
  };

  if (queue.length === 0) return <p className="py-8 text-center text-sm text-muted">{t('queueEmpty')}</p>;

  const ids = queue.map((_, position) => `q${position}`);
  return (
    <>
      <div className="-mx-2 min-h-0 flex-1 overflow-y-auto px-2">
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          modifiers={[verticalOnly]}
          accessibility={{ announcements: quiet }}
        >
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            <ol aria-label={t('queueTitle')} className="flex flex-col gap-0.5" data-testid="queue-list">
              {queue.map((song, position) => (
                <QueueRow
                  key={`${position}:${song.id}`}
                  id={ids[position] ?? ''}
                  song={song}
                  position={position}
                  total={queue.length}
                  isCurrent={position === index}
                  played={position < index}
                  rowRef={
                    position === index
                      ? (element) => {
                          currentRow.current = element;
                        }
                      : undefined
                  }
                  handleRef={(element) => {
                    if (element) handles.current.set(position, element);
                    else handles.current.delete(position);
                  }}
                  onMove={move}
                  onRemove={() => {
                    player.removeFromQueue(position);
                    setAnnouncement(t('queueRemoved', { title: song.displayName }));
                  }}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      </div>
      <div className="flex items-center justify-between gap-3 border-t border-border pt-3">
        <p role="status" aria-live="polite" className="min-w-0 truncate text-xs text-muted">
          {announcement}
        </p>
        <Button variant="secondary" size="sm" onClick={() => player.clearQueue()} disabled={queue.length <= 1}>
          <Trash2 aria-hidden className="size-4" />
          {t('queueClear')}
        </Button>
      </div>
    </>
  );
}

interface QueueRowProps {
  id: string;
  song: SongListEntry;
  position: number;
  total: number;
  isCurrent: boolean;
  played: boolean;
  rowRef: ((element: HTMLLIElement | null) => void) | undefined;
  handleRef: (element: HTMLButtonElement | null) => void;
  onMove: (from: number, to: number, keepFocus?: boolean) => void;
  onRemove: () => void;
}

function QueueRow({ id, song, position, total, isCurrent, played, rowRef, handleRef, onMove, onRemove }: QueueRowProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const title = song.displayName;
  const onHandleKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      onMove(position, position + (event.key === 'ArrowUp' ? -1 : 1), true);
    }
  };
  return (
    <li
      ref={(element) => {
        setNodeRef(element);
        rowRef?.(element);
      }}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-current={isCurrent ? 'true' : undefined}
      data-testid="queue-row"
      className={cn(
        'flex items-center gap-1.5 rounded-xl px-1.5 py-1.5 transition-colors hover:bg-white/[0.04]',
        isCurrent && 'bg-accent/15 hover:bg-accent/20',
        isDragging && 'relative z-10 bg-surface shadow-xl',
      )}
    >
      <button
        type="button"
        ref={(element) => {
          setActivatorNodeRef(element);
          handleRef(element);
        }}
        className={cn(iconButton, 'cursor-grab touch-none active:cursor-grabbing')}
        aria-label={t('queueDrag', { title })}
        {...attributes}
        {...listeners}
        // The handle's own keys: ArrowUp and ArrowDown move the song (dnd-kit's keyboard sensor is not used).
        aria-roledescription={undefined}
        aria-describedby={undefined}
        onKeyDown={onHandleKey}
      >
        <GripVertical aria-hidden />
      </button>
      <button
        type="button"
        onClick={() => player.playAt(position)}
        className="flex min-w-0 flex-1 cursor-pointer items-center gap-2.5 rounded-lg p-0.5 text-start outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={t('queuePlaySong', { title })}
      >
        <CoverArt fileKey={song.hasCover ? song.s3Key : null} size="thumb" className="size-9 shrink-0 rounded-md" />
        <span className="min-w-0">
          <span className={cn('block truncate text-sm font-semibold', isCurrent && 'text-fuchsia-200', played && 'font-medium text-muted')}>
            <bdi>{songHeadline(song)}</bdi>
          </span>
          <span className="block truncate text-xs text-muted">
            {isCurrent ? <span className="font-semibold text-fuchsia-300">{t('nowPlaying')} · </span> : null}
            <bdi>{song.artist ?? t('unknownArtist')}</bdi>
          </span>
        </span>
      </button>
      <button
        type="button"
        className={iconButton}
        aria-label={t('queueMoveUp', { title })}
        disabled={position === 0}
        onClick={() => onMove(position, position - 1)}
      >
        <ChevronUp aria-hidden />
      </button>
      <button
        type="button"
        className={iconButton}
        aria-label={t('queueMoveDown', { title })}
        disabled={position === total - 1}
        onClick={() => onMove(position, position + 1)}
      >
        <ChevronDown aria-hidden />
      </button>
      <button type="button" className={iconButton} aria-label={t('queueRemove', { title })} onClick={onRemove}>
        <X aria-hidden />
      </button>
    </li>
  );
}
