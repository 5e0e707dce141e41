import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { CLIP_MEDIA_ACCEPT } from '@encore/common/clips.contract';
import { Film, ImagePlus, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { clipEditor, useClipEditor } from './clip-editor.store';
import type { MediaItem } from './media-selection';
import { useMediaUrls } from './use-media-urls';

/** SPEC 2's media uploader: video/* and image/*, several pictures, dragged into order (@dnd-kit, pointer or keyboard). */
export function MediaUploader() {
  const t = useT();
  const media = useClipEditor((state) => state.media);
  const urls = useMediaUrls(media.items);
  const input = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const take = (files: FileList | null) => {
    clipEditor.addFiles(files ? Array.from(files) : []);
    if (input.current) input.current.value = '';
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDropping(false);
    take(event.dataTransfer.files);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => clipEditor.moveFile(String(active.id), over ? String(over.id) : null);

  return (
    <div className="flex flex-col gap-3">
      <input
        ref={input}
        type="file"
        multiple
        accept={CLIP_MEDIA_ACCEPT}
        aria-label={t('clipChooseMedia')}
        tabIndex={-1}
        className="sr-only"
        onChange={(event) => take(event.currentTarget.files)}
      />
      {!media.isVideo ? (
        <button
          type="button"
          onClick={() => input.current?.click()}
          onDragOver={(event) => {
            event.preventDefault();
            setDropping(true);
          }}
          onDragLeave={() => setDropping(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed border-border px-4 py-6 text-center text-sm outline-none hover:border-accent/60 focus-visible:ring-2 focus-visible:ring-ring',
            dropping && 'border-accent bg-accent/10',
          )}
        >
          <ImagePlus aria-hidden className="size-6 text-fuchsia-300" />
          <span className="font-semibold">{media.items.length ? t('clipAddMoreImages') : t('clipDropMedia')}</span>
          <span className="text-xs text-muted">{t('clipMediaHint')}</span>
        </button>
      ) : null}
      {media.items.length > 0 ? (
        <>
          {media.items.length > 1 ? <p className="text-xs text-muted">{t('clipReorderHint')}</p> : null}
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={media.items.map((item) => item.id)} strategy={rectSortingStrategy}>
              <ol aria-label={t('clipMediaList')} className="grid grid-cols-3 gap-2">
                {media.items.map((item, index) => (
                  <MediaTile key={item.id} item={item} index={index} url={urls.get(item.id)} isVideo={media.isVideo} />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        </>
      ) : null}
    </div>
  );
}

function MediaTile({ item, index, url, isVideo }: { item: MediaItem; index: number; url: string | undefined; isVideo: boolean }) {
  const t = useT();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.id, disabled: isVideo });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="clip-media-item"
      className={cn('group relative aspect-square overflow-hidden rounded-lg ring-1 ring-border', isDragging && 'z-10 opacity-80 ring-2 ring-accent')}
    >
      <div
        {...attributes}
        {...listeners}
        aria-label={t('clipMediaItem', { position: index + 1, name: item.file.name })}
        className="size-full cursor-grab touch-none outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {isVideo ? (
          <div className="grid size-full place-items-center bg-black/40 p-2 text-center text-xs">
            <Film aria-hidden className="mb-1 size-6 text-fuchsia-300" />
            <span className="line-clamp-2 break-all">{item.file.name}</span>
          </div>
        ) : url ? (
          <img src={url} alt={item.file.name} draggable={false} className="size-full object-cover" />
        ) : null}
      </div>
      <span className="pointer-events-none absolute inset-s-1 top-1 rounded bg-black/60 px-1.5 text-xs font-semibold tabular-nums">{index + 1}</span>
      <button
        type="button"
        onClick={() => clipEditor.removeFile(item.id)}
        aria-label={t('clipRemoveMedia', { name: item.file.name })}
        className="absolute inset-e-1 top-1 grid size-6 cursor-pointer place-items-center rounded-full bg-black/70 text-white outline-none hover:bg-red-500 focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X aria-hidden className="size-3.5" />
      </button>
    </li>
  );
}
