import type { SongListEntry } from '@encore/common/library.contract';
import { closestCenter, DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent, type Modifier } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Music2 } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { StatusPanel } from '../../components/status-panel';
import { useT } from '../../lib/i18n/i18n.store';
import { moveItem } from './playlist-order';
import { PlaylistSongRow } from './playlist-song-row.component';
import { useRemovePlaylistSong, useReorderPlaylist } from './playlists.queries';

/** Our own live region says where a row went; dnd-kit's stays quiet rather than speak ids. */
const quiet = { onDragStart: () => undefined, onDragOver: () => undefined, onDragEnd: () => undefined, onDragCancel: () => undefined };

/** Rows move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

interface PlaylistSongListProps {
  playlistId: number;
  songs: readonly SongListEntry[];
  currentSongId: number | null;
  isPlaying: boolean;
}

/**
 * The playlist's songs in order. Rows are reordered by dragging their handle, or with the
 * handle's ArrowUp/ArrowDown keys; every move is saved at once (useReorderPlaylist).
 */
export function PlaylistSongList({ playlistId, songs, currentSongId, isPlaying }: PlaylistSongListProps) {
  const t = useT();
  const hintId = useId();
  const reorder = useReorderPlaylist(playlistId);
  const remove = useRemovePlaylistSong(playlistId);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const [announcement, setAnnouncement] = useState('');
  const handles = useRef(new Map<number, HTMLButtonElement>());
  /** The row whose handle keeps the focus after a keyboard move re-renders the list. */
  const focusAfterMove = useRef<number | null>(null);

  useLayoutEffect(() => {
    if (focusAfterMove.current === null) return;
    const handle = handles.current.get(focusAfterMove.current);
    if (handle && document.activeElement !== handle) handle.focus();
    focusAfterMove.current = null;
  }, [songs]);

  const move = (from: number, to: number) => {
    const song = songs[from];
    if (!song || to < 0 || to >= songs.length || from === to) return;
    const ids = moveItem(
      songs.map((entry) => entry.id),
      from,
      to,
    );
    reorder.mutate(ids);
    setAnnouncement(t('reorderMoved', { title: song.displayName, position: to + 1, count: songs.length }));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = songs.findIndex((song) => song.id === active.id);
    const to = songs.findIndex((song) => song.id === over.id);
    if (from >= 0 && to >= 0) move(from, to);
  };

  const removeSong = (song: SongListEntry) => {
    remove.mutate(song.id, { onSuccess: () => toast.success(t('songRemovedFromPlaylist')) });
  };

  if (songs.length === 0) {
    return (
      <StatusPanel icon={<Music2 aria-hidden />} title={t('playlistEmptySongs')} className="py-12">
        {t('playlistEmptySongsBody')}
      </StatusPanel>
    );
  }

  return (
    <>
      <p id={hintId} className="sr-only">
        {t('reorderHint')}
      </p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        modifiers={[verticalOnly]}
        onDragEnd={onDragEnd}
        accessibility={{ announcements: quiet, screenReaderInstructions: { draggable: t('reorderHint') } }}
      >
        <SortableContext items={songs.map((song) => song.id)} strategy={verticalListSortingStrategy}>
          <ol className="flex flex-col gap-0.5 rounded-2xl border border-border bg-surface/50 p-1.5 sm:p-2">
            {songs.map((song, index) => (
              <PlaylistSongRow
                key={song.id}
                song={song}
                position={index + 1}
                isCurrent={song.id === currentSongId}
                isPlaying={song.id === currentSongId && isPlaying}
                hintId={hintId}
                removing={remove.isPending && remove.variables === song.id}
                onRemove={() => removeSong(song)}
                onMove={(delta) => {
                  focusAfterMove.current = song.id;
                  move(index, index + delta);
                }}
                handleRef={(element) => {
                  if (element) handles.current.set(song.id, element);
                  else handles.current.delete(song.id);
                }}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </>
  );
}
