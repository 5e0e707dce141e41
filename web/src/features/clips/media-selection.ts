/**
 * SPEC 4's media selection: an ordered list of files identified by name, and a flag saying
 * whether the selection is a video. Pure, so the editor's rules are tested without a browser.
 */
export interface MediaItem {
  /** Stable for drag-and-drop and React keys (two files may share a name). */
  id: string;
  file: File;
}

export interface MediaSelection {
  items: MediaItem[];
  isVideo: boolean;
}

export const EMPTY_MEDIA: MediaSelection = { items: [], isVideo: false };

let nextId = 0;
function itemFor(file: File): MediaItem {
  nextId += 1;
  return { id: `media-${nextId}`, file };
}

/** Only the first chosen file decides video versus images (SPEC 5); one video, or pictures. */
export function addMedia(selection: MediaSelection, files: readonly File[]): MediaSelection {
  const wanted = files.filter((file) => file.type.startsWith('video/') || file.type.startsWith('image/'));
  if (wanted.length === 0) return selection;
  if (selection.items.length === 0) {
    const isVideo = wanted[0]!.type.startsWith('video/');
    const items = isVideo ? [itemFor(wanted[0]!)] : wanted.filter((file) => file.type.startsWith('image/')).map(itemFor);
    return { items, isVideo };
  }
  // A video is one file: adding to it replaces nothing; pictures take only more pictures.
  if (selection.isVideo) return selection;
  return { ...selection, items: [...selection.items, ...wanted.filter((file) => file.type.startsWith('image/')).map(itemFor)] };
}

/** Removing the last item resets the video flag (SPEC 4). */
export function removeMedia(selection: MediaSelection, id: string): MediaSelection {
  const items = selection.items.filter((item) => item.id !== id);
  return { items, isVideo: items.length === 0 ? false : selection.isVideo };
}

/** Drag-reorder: the item moves to the dropped position; a drop outside the list does nothing (SPEC 4). */
export function moveMedia(selection: MediaSelection, activeId: string, overId: string | null | undefined): MediaSelection {
  if (!overId || activeId === overId) return selection;
  const from = selection.items.findIndex((item) => item.id === activeId);
  const to = selection.items.findIndex((item) => item.id === overId);
  if (from < 0 || to < 0) return selection;
  const items = [...selection.items];
  const [moved] = items.splice(from, 1);
  items.splice(to, 0, moved!);
  return { ...selection, items };
}
