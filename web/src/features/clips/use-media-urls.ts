import { useMemo } from 'react';
import type { MediaItem } from './media-selection';

/** One object URL per chosen file, shared by the thumbnails and the preview canvas. */
const urls = new WeakMap<File, string>();

function mediaUrl(file: File): string {
  let url = urls.get(file);
  if (!url) {
    url = URL.createObjectURL(file);
    urls.set(file, url);
  }
  return url;
}

/** Frees the URLs of files that left the selection (the editor's remove and clear). */
export function releaseMediaUrls(files: readonly File[]): void {
  for (const file of files) {
    const url = urls.get(file);
    if (url) URL.revokeObjectURL(url);
    urls.delete(file);
  }
}

/** The object URL of each chosen file, by item id. */
export function useMediaUrls(items: readonly MediaItem[]): Map<string, string> {
  return useMemo(() => new Map(items.map((item) => [item.id, mediaUrl(item.file)])), [items]);
}
